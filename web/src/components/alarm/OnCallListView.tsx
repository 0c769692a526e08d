import { Button, Input, Space, Tag } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { deleteOnCall, onCallPageKey, type OnCallSchedule } from '@/api/oncall';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { Permitted } from '@/components/ui/Permitted';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { formatTime } from '@/lib/format';
import { OnCallForm } from './OnCallForm';
import { personLabel } from './onCall';

/** /alarm/oncall: on-call schedules with the person on call now; push-setting levels may name them. */
export function OnCallListView() {
  const { t } = useTranslation('alarm');
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<{ schedule: OnCallSchedule | null } | null>(null);
  const { data, loading, pagination, mutate } = usePagedQuery<OnCallSchedule, { name?: string }>(onCallPageKey, {
    name: name || undefined,
  });
  const columns: ListColumn<OnCallSchedule>[] = [
    { key: 'name', title: t('oncall.name'), dataIndex: 'name' },
    { key: 'scope', title: t('oncall.scope'), render: (_, s) => t(`oncall.scopes.${s.scope}`) },
    { key: 'zone', title: t('oncall.timeZone'), dataIndex: 'timeZone', responsive: ['md'] },
    {
      key: 'now',
      title: t('oncall.now'),
      render: (_, s) =>
        s.onCallNow.person ? (
          <span data-testid={`oncall-now-${s.id}`}>
            {personLabel(s.onCallNow.person)}{' '}
            {s.onCallNow.source === 'override' ? <Tag>{t('oncall.override')}</Tag> : null}
            {s.onCallNow.since ? (
              <div style={{ color: 'rgba(0,0,0,0.45)' }}>
                {t('oncall.since', {
                  time: formatTime(s.onCallNow.since, 'YYYY-MM-DD HH:mm', s.timeZone),
                  zone: s.timeZone,
                })}
              </div>
            ) : null}
          </span>
        ) : (
          <span data-testid={`oncall-now-${s.id}`}>{t('oncall.nobody')}</span>
        ),
    },
    {
      key: 'actions',
      title: t('column.actions'),
      render: (_, s) => (
        <Space size={0}>
          <Permitted route="alarm.oncall" action="edit">
            <Button
              type="link"
              size="small"
              onClick={() => setEditing({ schedule: s })}
              data-testid={`oncall-edit-${s.id}`}
            >
              {t('oncall.editAction')}
            </Button>
          </Permitted>
          <ConfirmAction
            route="alarm.oncall"
            action="delete"
            title={t('oncall.deleteConfirm')}
            onConfirm={() => deleteOnCall(s.id).then(() => mutate())}
          >
            {t('oncall.delete')}
          </ConfirmAction>
        </Space>
      ),
    },
  ];
  return (
    <div data-testid="oncall-list">
      <Space wrap style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Input
          allowClear
          placeholder={t('oncall.name')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          style={{ width: 200 }}
        />
        <Permitted route="alarm.oncall" action="add">
          <Button type="primary" onClick={() => setEditing({ schedule: null })} data-testid="oncall-add">
            {t('oncall.add')}
          </Button>
        </Permitted>
      </Space>
      <DataList<OnCallSchedule> rowKey="id" columns={columns} data={data} loading={loading} pagination={pagination} />
      <OnCallForm
        key={editing?.schedule?.id ?? 'new'}
        schedule={editing?.schedule ?? null}
        open={Boolean(editing)}
        onClose={() => setEditing(null)}
        onSaved={() => void mutate()}
      />
    </div>
  );
}
