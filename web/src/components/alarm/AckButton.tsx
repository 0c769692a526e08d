import { Button, Tag, Tooltip } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { acknowledgeAlarm, type Alarm } from '@/api/alarm';
import { formatTime } from '@/lib/format';

/** Acknowledge an open alarm (stops its repeats and escalation); an acknowledged one shows who and how. */
export function AckButton({ alarm, onDone }: { alarm: Alarm; onDone: () => void }) {
  const { t } = useTranslation('alarm');
  const [busy, setBusy] = useState(false);
  if (alarm.ackTime) {
    return (
      <Tooltip title={`${formatTime(alarm.ackTime)} · ${alarm.ackBy ?? ''}`}>
        <Tag color="green" data-testid="alarm-acknowledged">
          {t('ack.done', { via: t(`ack.via.${alarm.ackVia ?? 'console'}`) })}
        </Tag>
      </Tooltip>
    );
  }
  if (alarm.status !== 'open') return null;
  return (
    <Button
      size="small"
      type="link"
      loading={busy}
      data-testid="alarm-acknowledge"
      onClick={() => {
        setBusy(true);
        acknowledgeAlarm(alarm.id)
          .then(onDone)
          .catch(() => undefined)
          .finally(() => setBusy(false));
      }}
    >
      {t('action.acknowledge')}
    </Button>
  );
}
