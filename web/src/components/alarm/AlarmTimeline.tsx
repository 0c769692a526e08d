import { Timeline, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { alarmTimelineKey, type TimelineEntry } from '@/api/alarm';
import { useRead } from '@/hooks/useRead';
import { formatTime } from '@/lib/format';

const COLORS: Record<string, string> = {
  opened: 'red',
  escalated: 'orange',
  failed: 'red',
  delivered: 'green',
  acknowledged: 'green',
  processed: 'blue',
  closed: 'gray',
};

/** Every step of one alarm, oldest first: opened, each send, delivered, escalated, acknowledged, processed, closed. */
export function AlarmTimeline({ alarmId }: { alarmId: number }) {
  const { t } = useTranslation('alarm');
  const { data } = useRead<TimelineEntry[]>(alarmTimelineKey(alarmId), { refreshInterval: 10_000 });
  const describe = (step: TimelineEntry) => {
    const parts = [t(`timeline.event.${step.event ?? 'opened'}`)];
    if (step.level && step.event === 'escalated') parts.push(t('timeline.level', { n: step.level }));
    if (step.channel) parts.push(t(`channel.${step.channel}`));
    if (step.recipient) parts.push(step.recipient);
    if (step.via) parts.push(t(`ack.via.${step.via}`));
    if (step.by) parts.push(step.by);
    if (step.state) parts.push(t(`state.${step.state}`));
    if (step.detail)
      parts.push(step.event === 'closed' ? t(`timeline.closed.${step.detail}`, step.detail) : step.detail);
    return parts.join(' · ');
  };
  return (
    <div data-testid={`alarm-timeline-${alarmId}`} style={{ marginBottom: 12 }}>
      <Typography.Text strong>{t('timeline.title')}</Typography.Text>
      <Timeline
        style={{ marginTop: 8 }}
        items={(data ?? []).map((step, index) => ({
          key: index,
          color: COLORS[step.event ?? ''] ?? 'blue',
          children: (
            <span data-testid="timeline-step">
              <Typography.Text type="secondary">{formatTime(step.time)}</Typography.Text> {describe(step)}
            </span>
          ),
        }))}
      />
    </div>
  );
}
