import { App, Button, DatePicker, Form, Input, Modal, Segmented, Space } from 'antd';
import type { Rule } from 'antd/es/form';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'next-i18next/pages';
import { useCallback, useState } from 'react';
import {
  deleteMaintenance,
  insertMaintenance,
  maintenancePageKey,
  updateMaintenance,
  type MaintenanceInput,
  type MaintenanceRecord,
  type RecordKind,
} from '@/api/device';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { formatTime, isoWithOffset } from '@/lib/format';
import { DataList } from '@/components/ui/DataList';
import { useFormSubmit } from '@/hooks/useFormSubmit';

/** Field limits of business spec 5 (maintenance). */
export const RECORD_LIMITS = {
  person: 50,
  approver: 20,
  repairer: 50,
  reason: 1000,
  content: 1000,
  result: 1000,
  standard: 10000,
} as const;
type TextField = keyof typeof RECORD_LIMITS;

interface RecordValues extends Partial<Record<TextField, string>> {
  reportTime: Dayjs;
  period: [Dayjs, Dayjs];
}

function RecordModal({
  deviceId,
  kind,
  record,
  onClose,
  onSaved,
}: {
  deviceId: number;
  kind: RecordKind;
  record: MaintenanceRecord | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('device');
  const [form] = Form.useForm<RecordValues>();
  const [saving, setSaving] = useState(false);
  const fields: TextField[] =
    kind === 'warranty'
      ? ['person', 'approver', 'repairer', 'reason', 'content', 'result', 'standard']
      : ['person', 'approver', 'reason', 'content', 'result', 'standard'];
  const rules = (field: TextField): Rule[] => [
    ...(field === 'person' ? [{ required: true, whitespace: true, message: t('records.required') }] : []),
    { max: RECORD_LIMITS[field], message: t('records.max', { max: RECORD_LIMITS[field] }) },
  ];

  const submit = async (values: RecordValues) => {
    const body: MaintenanceInput = {
      deviceId,
      kind,
      reportTime: isoWithOffset(values.reportTime.toDate()),
      startTime: isoWithOffset(values.period[0].toDate()),
      endTime: isoWithOffset(values.period[1].toDate()),
      person: (values.person ?? '').trim(),
    };
    for (const field of fields) if (field !== 'person') body[field] = values[field]?.trim() || null;
    setSaving(true);
    try {
      if (record) await updateMaintenance({ ...body, id: record.id });
      else await insertMaintenance(body);
      onSaved();
    } catch {
      // Shown by the request client.
    } finally {
      setSaving(false);
    }
  };

  const initial: Partial<RecordValues> = record
    ? {
        reportTime: dayjs(record.reportTime),
        period: [dayjs(record.startTime), dayjs(record.endTime)],
        ...Object.fromEntries(fields.map((field) => [field, record[field] ?? ''])),
      }
    : { reportTime: dayjs() };

  // Spec 9: every form and modal submits once per 500 ms.
  const { submit: submitOnce } = useFormSubmit(null, submit);
  return (
    <Modal
      open
      title={t(record ? 'records.editTitle' : 'records.add')}
      okText={t('action.save')}
      cancelText={t('action.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      width={640}
    >
      <Form<RecordValues>
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={submitOnce}
        data-testid="record-form"
      >
        <Form.Item
          name="reportTime"
          label={t('records.reportTime')}
          rules={[{ required: true, message: t('records.required') }]}
        >
          <DatePicker showTime style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          name="period"
          label={`${t('records.startTime')} - ${t('records.endTime')}`}
          rules={[
            { required: true, message: t('records.required') },
            {
              validator: (_, value?: [Dayjs, Dayjs]) =>
                !value || value[1].isAfter(value[0])
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('records.endAfterStart'))),
            },
          ]}
        >
          <DatePicker.RangePicker showTime style={{ width: '100%' }} />
        </Form.Item>
        {fields.map((field) => (
          <Form.Item key={field} name={field} label={t(`records.${field}`)} rules={rules(field)}>
            {RECORD_LIMITS[field] > 50 ? (
              <Input.TextArea rows={field === 'standard' ? 4 : 2} showCount maxLength={RECORD_LIMITS[field]} />
            ) : (
              <Input maxLength={RECORD_LIMITS[field]} />
            )}
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}

/** Maintenance and warranty records of a device (paged, add, edit, delete). */
export function RecordsTab({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('device');
  const { modal } = App.useApp();
  const [kind, setKind] = useState<RecordKind>('maintenance');
  const [editing, setEditing] = useState<{ record: MaintenanceRecord | null } | null>(null);
  const filters = { deviceId, kind };
  const { data, loading, pagination, mutate } = usePagedQuery<MaintenanceRecord, typeof filters>(
    maintenancePageKey,
    filters,
  );
  const reload = useCallback(() => void mutate(), [mutate]);

  const remove = (record: MaintenanceRecord) =>
    modal.confirm({
      content: t('confirm.deleteRecord'),
      okText: t('action.delete'),
      cancelText: t('action.cancel'),
      okButtonProps: { danger: true },
      onOk: () => deleteMaintenance(record.id).then(reload, () => undefined),
    });

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="device-records">
      <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
        <Segmented<RecordKind>
          value={kind}
          onChange={setKind}
          options={(['maintenance', 'warranty'] as const).map((value) => ({ value, label: t(`records.${value}`) }))}
        />
        <Button type="primary" onClick={() => setEditing({ record: null })}>
          {t('records.add')}
        </Button>
      </Space>
      <DataList<MaintenanceRecord>
        rowKey="id"
        size="small"
        loading={loading}
        data={data}
        pagination={pagination}
        testId="records-table"
        columns={[
          {
            key: 'reportTime',
            title: t('records.reportTime'),
            important: true,
            card: 'title',
            render: (_, record) => formatTime(record.reportTime),
          },
          { key: 'startTime', title: t('records.startTime'), render: (_, record) => formatTime(record.startTime) },
          { key: 'endTime', title: t('records.endTime'), render: (_, record) => formatTime(record.endTime) },
          { key: 'person', title: t('records.person'), dataIndex: 'person' },
          { key: 'content', title: t('records.content'), dataIndex: 'content', long: 200 },
          { key: 'result', title: t('records.result'), dataIndex: 'result', long: 160 },
          {
            key: 'actions',
            title: t('column.actions'),
            render: (_, record) => (
              <Space size={4}>
                <Button type="link" size="small" onClick={() => setEditing({ record })}>
                  {t('action.edit')}
                </Button>
                <Button type="link" size="small" danger onClick={() => remove(record)}>
                  {t('action.delete')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {editing ? (
        <RecordModal
          deviceId={deviceId}
          kind={kind}
          record={editing.record}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            reload();
          }}
        />
      ) : null}
    </Space>
  );
}
