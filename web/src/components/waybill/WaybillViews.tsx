import {
  Button,
  DatePicker,
  Descriptions,
  Drawer,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  Tabs,
  Tag,
  Typography,
  message,
} from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { ApiError } from '@/api/errors';
import {
  deleteWaybill,
  disposeWaybill,
  insertWaybill,
  OFFLINE_CODE,
  startWaybill,
  stopWaybill,
  updateWaybill,
  waybillDetailKey,
  waybillPageKey,
  waybillReport,
  waybillStatusKey,
  type Fence,
  type Waybill,
  type WaybillInput,
  type WaybillState,
  type WaybillStatus,
} from '@/api/waybill';
import { formatTime } from '@/lib/format';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { DrawerForm, type DrawerField } from '@/components/ui/DrawerForm';
import { Permitted } from '@/components/ui/Permitted';
import { useDeviceOptions, useFenceChoices } from '@/hooks/resources';
import { firstPageKey, usePagedQuery } from '@/hooks/usePagedQuery';
import { useRead } from '@/hooks/useRead';
import { WaybillBudgetTab } from '@/components/budget/BudgetPanel';
import { AlarmTab, ChartTab, StateTag } from './StatusPanel';
import { WaybillTrackStatus } from './TrackTemplates';
import { SharesTab } from './WaybillShares';

const LIST = 'waybill.list';

export function useFences() {
  const { data } = useFenceChoices();
  return data?.list ?? [];
}

function fenceShapes(fences: Fence[], ids: (number | null | undefined)[]) {
  return fences.filter((f) => ids.includes(f.id));
}

/** Start with the spec's prompts: an offline device asks for confirmation first. */
export function useStart(onDone: () => void) {
  const { t } = useTranslation('waybill');
  return async (waybill: Waybill) => {
    try {
      const started = await startWaybill(waybill.id);
      if (started.state === 'not_started' && started.startRequestedAt) message.info(t('action.startAtDevice'));
      onDone();
    } catch (error) {
      if (error instanceof ApiError && error.failure.code === OFFLINE_CODE) {
        Modal.confirm({
          title: t('action.offlineTitle'),
          content: t('action.offlineContent'),
          onOk: () => startWaybill(waybill.id, true).then(onDone),
        });
      } else if (error instanceof ApiError) {
        message.error(error.failure.serverMessage ?? error.message);
      }
    }
  };
}

function WaybillActions({
  waybill,
  onChanged,
  onEdit,
  onOpen,
}: {
  waybill: Waybill;
  onChanged: () => void;
  onEdit: () => void;
  onOpen: () => void;
}) {
  const { t } = useTranslation('waybill');
  const start = useStart(onChanged);
  return (
    <Space size={0} wrap>
      <Button type="link" size="small" onClick={onOpen} data-testid="waybill-open">
        {t('action.detail')}
      </Button>
      {waybill.state === 'not_started' ? (
        <Permitted route={LIST} action="start">
          <Button type="link" size="small" onClick={() => void start(waybill)} data-testid="waybill-start">
            {t('action.start')}
          </Button>
        </Permitted>
      ) : null}
      {waybill.state === 'in_progress' ? (
        <Permitted route={LIST} action="stop">
          <Popconfirm title={t('action.stopConfirm')} onConfirm={() => stopWaybill(waybill.id).then(onChanged)}>
            <Button type="link" size="small" data-testid="waybill-stop">
              {t('action.stop')}
            </Button>
          </Popconfirm>
        </Permitted>
      ) : null}
      {waybill.editable ? (
        <Permitted route={LIST} action="edit">
          <Button type="link" size="small" onClick={onEdit}>
            {t('action.edit')}
          </Button>
        </Permitted>
      ) : null}
      {waybill.state !== 'in_progress' ? (
        <Permitted route={LIST} action="delete">
          <Popconfirm title={t('action.deleteConfirm')} onConfirm={() => deleteWaybill(waybill.id).then(onChanged)}>
            <Button type="link" size="small" danger>
              {t('action.delete')}
            </Button>
          </Popconfirm>
        </Permitted>
      ) : null}
    </Space>
  );
}

/** The list's first read (page 1, no filter), started beside the account info (lib/firstReads). */
export function waybillListFirstRead() {
  return firstPageKey(waybillPageKey, {});
}

/** /waybill/list: waybills with their state, start / stop, and the detail tabs. */
export function WaybillListView() {
  const { t } = useTranslation('waybill');
  const [keyword, setKeyword] = useState('');
  const [state, setState] = useState<WaybillState | undefined>();
  const [editing, setEditing] = useState<{ waybill: Waybill | null } | null>(null);
  const [open, setOpen] = useState<Waybill | null>(null);
  const { data, loading, pagination, mutate } = usePagedQuery<Waybill, { keyword?: string; state?: WaybillState }>(
    waybillPageKey,
    { keyword: keyword || undefined, state },
  );
  const reload = () => void mutate();
  const columns: ListColumn<Waybill>[] = [
    {
      key: 'num',
      title: t('field.waybillNum'),
      card: 'title',
      render: (_, w) => <Typography.Link onClick={() => setOpen(w)}>{w.waybillNum}</Typography.Link>,
    },
    { key: 'goods', title: t('field.goodsName'), dataIndex: 'goodsName', long: 160 },
    { key: 'express', title: t('field.expressNumber'), dataIndex: 'expressNumber', desktopOnly: true, card: false },
    { key: 'device', title: t('field.device'), render: (_, w) => w.deviceName ?? w.deviceGuid },
    {
      key: 'limits',
      title: `${t('field.lowerLimit')} ~ ${t('field.upperLimit')}`,
      render: (_, w) => `${w.lowerLimit} ~ ${w.upperLimit}`,
      desktopOnly: true,
      card: false,
    },
    { key: 'state', title: t('field.state'), important: true, render: (_, w) => <StateTag state={w.state} /> },
    { key: 'started', title: t('field.startedAt'), render: (_, w) => formatTime(w.startedAt), desktopOnly: true },
    {
      key: 'actions',
      title: t('list.actions'),
      render: (_, w) => (
        <WaybillActions
          waybill={w}
          onChanged={reload}
          onEdit={() => setEditing({ waybill: w })}
          onOpen={() => setOpen(w)}
        />
      ),
    },
  ];
  return (
    <div data-testid="waybill-list">
      <DataList<Waybill>
        rowKey="id"
        testId="waybill-table"
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
        emptyText={t('list.empty')}
        filters={
          <>
            <Input
              allowClear
              placeholder={t('list.keyword')}
              value={keyword}
              onChange={(e) => setKeyword(e.target.value)}
              style={{ width: 240, maxWidth: '100%' }}
              data-testid="waybill-keyword"
            />
            <Select<WaybillState>
              allowClear
              placeholder={t('list.all')}
              value={state}
              onChange={setState}
              style={{ width: 140 }}
              options={(['not_started', 'in_progress', 'completed'] as const).map((value) => ({
                value,
                label: t(`state.${value}`),
              }))}
            />
          </>
        }
        actions={
          <Permitted route={LIST} action="add">
            <Button type="primary" onClick={() => setEditing({ waybill: null })} data-testid="waybill-add">
              {t('list.add')}
            </Button>
          </Permitted>
        }
      />
      <WaybillDrawer
        waybill={editing?.waybill ?? null}
        open={Boolean(editing)}
        onClose={() => setEditing(null)}
        onSaved={reload}
      />
      <WaybillDetailDrawer waybill={open} onClose={() => setOpen(null)} onChanged={reload} />
    </div>
  );
}

function WaybillDrawer({
  waybill,
  open,
  onClose,
  onSaved,
}: {
  waybill: Waybill | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('waybill');
  // business-domain §3: a waybill's logger is a device whose type supports waybills.
  const devices = useDeviceOptions(open).filter((device) => device.waybill);
  const fences = useFences().map((f) => ({ value: f.id, label: f.name }));
  const triggers = (which: 'start' | 'stop') =>
    (['manual', 'fence', 'time'] as const).map((value) => ({ value, label: t(`trigger.${which}.${value}`) }));
  const text = (name: keyof WaybillInput, max: number, required = false, min?: number): DrawerField => ({
    type: 'input',
    name,
    label: t(`field.${name}`),
    maxLength: max,
    minLength: min,
    rules: required ? [{ required: true, message: t(`field.${name}`) }] : [],
  });
  const fields: DrawerField[] = [
    text('orderNum', 20, true),
    text('goodsName', 20, true),
    { ...text('expressNumber', 100), extra: t('field.expressNumberHint') },
    text('coolerCode', 20),
    {
      type: 'select',
      name: 'deviceId',
      label: t('field.device'),
      options: devices,
      search: true,
      rules: [{ required: true, message: t('field.device') }],
    },
    { type: 'number', name: 'recordInterval', label: t('field.recordInterval'), min: 1, max: 1440, precision: 0 },
    {
      type: 'number',
      name: 'upperLimit',
      label: t('field.upperLimit'),
      min: -40,
      max: 85,
      rules: [{ required: true, message: t('field.upperLimit') }],
    },
    {
      type: 'number',
      name: 'lowerLimit',
      label: t('field.lowerLimit'),
      min: -40,
      max: 85,
      rules: [{ required: true, message: t('field.lowerLimit') }],
    },
    { type: 'switch', name: 'airFlag', label: t('field.airFlag') },
    { type: 'select', name: 'originFenceId', label: t('field.originFence'), options: fences, allowClear: true },
    {
      type: 'select',
      name: 'destinationFenceId',
      label: t('field.destinationFence'),
      options: fences,
      allowClear: true,
    },
    { type: 'select', name: 'fenceModelId', label: t('field.fenceModel'), options: fences, allowClear: true },
    { type: 'radio', name: 'startMode', label: t('field.startMode'), options: triggers('start') },
    {
      type: 'slot',
      name: 'startAt',
      label: t('field.startAt'),
      hidden: (v) => v.startMode !== 'time',
      render: (form) => (
        <DatePicker
          showTime
          value={form.getFieldValue('startAt') ? dayjs(form.getFieldValue('startAt') as string) : null}
          onChange={(d) => form.setFieldValue('startAt', d ? d.toISOString() : null)}
        />
      ),
    },
    { type: 'radio', name: 'stopMode', label: t('field.stopMode'), options: triggers('stop') },
    {
      type: 'slot',
      name: 'stopAt',
      label: t('field.stopAt'),
      hidden: (v) => v.stopMode !== 'time',
      render: (form) => (
        <DatePicker
          showTime
          value={form.getFieldValue('stopAt') ? dayjs(form.getFieldValue('stopAt') as string) : null}
          onChange={(d) => form.setFieldValue('stopAt', d ? d.toISOString() : null)}
        />
      ),
    },
    { type: 'number', name: 'ignoreMinutes', label: t('field.ignoreMinutes'), min: 0, max: 1440, precision: 0 },
    { type: 'title', name: 'senderTitle', label: t('field.sender') },
    text('senderName', 20, true, 2),
    text('senderPhone', 20, true),
    { type: 'title', name: 'receiverTitle', label: t('field.receiver') },
    text('receiverCompany', 20),
    text('receiverName', 20, true),
    text('receiverPhone', 20, true),
    { type: 'title', name: 'alarmTitle', label: t('field.alarmContact') },
    text('alarmName', 20),
    text('alarmPhone', 20),
    text('alarmEmail', 100),
  ];
  const initial: Partial<WaybillInput> = waybill ?? {
    startMode: 'manual',
    stopMode: 'manual',
    ignoreMinutes: 10,
    upperLimit: 8,
    lowerLimit: 2,
    airFlag: false,
  };
  return (
    <DrawerForm<WaybillInput & Record<string, unknown>>
      open={open}
      title={waybill ? waybill.waybillNum : t('list.add')}
      fields={fields}
      initialValues={initial as never}
      width={560}
      onClose={onClose}
      submitText={t('action.save')}
      onSubmit={async (values) => {
        const body: WaybillInput = {
          ...values,
          startAt: values.startMode === 'time' ? values.startAt : null,
          stopAt: values.stopMode === 'time' ? values.stopAt : null,
        };
        for (const key of [
          'expressNumber',
          'coolerCode',
          'receiverCompany',
          'alarmName',
          'alarmPhone',
          'alarmEmail',
        ] as const)
          if (!body[key]) body[key] = null;
        await (waybill ? updateWaybill({ ...body, id: waybill.id }) : insertWaybill(body));
        onSaved();
      }}
    />
  );
}

function InfoTab({ waybill, onChanged }: { waybill: Waybill; onChanged: () => void }) {
  const { t } = useTranslation('waybill');
  const [reason, setReason] = useState('');
  const rows: [string, unknown][] = [
    ['waybillNum', waybill.waybillNum],
    ['orderNum', waybill.orderNum],
    ['goodsName', waybill.goodsName],
    ['expressNumber', waybill.expressNumber],
    ['coolerCode', waybill.coolerCode],
    ['device', `${waybill.deviceName ?? ''} (${waybill.deviceGuid})`],
    ['recordInterval', waybill.recordInterval],
    ['upperLimit', waybill.upperLimit],
    ['lowerLimit', waybill.lowerLimit],
    ['ignoreMinutes', waybill.ignoreMinutes],
    ['startMode', t(`trigger.start.${waybill.startMode ?? 'manual'}`)],
    ['stopMode', t(`trigger.stop.${waybill.stopMode ?? 'manual'}`)],
    ['senderName', waybill.senderName],
    ['senderPhone', waybill.senderPhone],
    ['receiverCompany', waybill.receiverCompany],
    ['receiverName', waybill.receiverName],
    ['receiverPhone', waybill.receiverPhone],
    ['alarmName', waybill.alarmName],
    ['alarmPhone', waybill.alarmPhone],
    ['alarmEmail', waybill.alarmEmail],
  ];
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="waybill-info">
      <Descriptions size="small" column={{ xs: 1, md: 2 }}>
        {rows.map(([key, value]) => (
          <Descriptions.Item key={key} label={t(`field.${key}`)}>
            {value === null || value === undefined || value === '' ? '-' : String(value)}
          </Descriptions.Item>
        ))}
        <Descriptions.Item label={t('field.disposition')}>
          {waybill.disposition ? (
            <Tag color={{ released: 'success', quarantined: 'warning', rejected: 'error' }[waybill.disposition]}>
              {t(`disposition.${waybill.disposition}`)} {waybill.dispositionReason ?? ''}
            </Tag>
          ) : (
            t('disposition.none')
          )}
        </Descriptions.Item>
      </Descriptions>
      {waybill.startedAt ? (
        <Permitted route={LIST} action="export">
          <Space wrap>
            {(['pdf', 'csv', 'xlsx'] as const).map((type) => (
              <Button
                key={type}
                onClick={() => waybillReport(waybill.id, type).then(() => message.success(t('action.reportQueued')))}
                data-testid={`waybill-report-${type}`}
              >
                {t(`action.report.${type}`)}
              </Button>
            ))}
          </Space>
        </Permitted>
      ) : null}
      {waybill.state === 'completed' && !waybill.disposition ? (
        <Permitted route={LIST} action="dispose">
          <Space wrap>
            <Input
              placeholder={t('action.reason')}
              maxLength={200}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              style={{ width: 260 }}
            />
            <Button type="primary" onClick={() => disposeWaybill(waybill.id, 'released', reason).then(onChanged)}>
              {t('action.release')}
            </Button>
            <Button onClick={() => disposeWaybill(waybill.id, 'quarantined', reason).then(onChanged)}>
              {t('action.quarantine')}
            </Button>
            <Button danger onClick={() => disposeWaybill(waybill.id, 'rejected', reason).then(onChanged)}>
              {t('action.reject')}
            </Button>
          </Space>
        </Permitted>
      ) : null}
    </Space>
  );
}

/** Waybill detail tabs (business spec 2): status / real-time, data graph, alarm status, waybill information. */
export function WaybillDetailDrawer({
  waybill: opened,
  onClose,
  onChanged,
}: {
  waybill: Waybill | null;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation('waybill');
  const fences = useFences();
  const { data: fresh, mutate: reloadWaybill } = useRead<Waybill>(opened ? waybillDetailKey(opened.id) : null);
  const waybill = opened ? (fresh?.id === opened.id ? fresh : opened) : null;
  const { data: status, mutate } = useRead<WaybillStatus>(opened ? waybillStatusKey(opened.id) : null, {
    refreshInterval: 30_000,
  });
  const changed = () => {
    onChanged();
    void mutate();
    void reloadWaybill();
  };
  const shown = waybill
    ? fenceShapes(fences, [waybill.originFenceId, waybill.destinationFenceId, waybill.fenceModelId])
    : [];
  return (
    <Drawer
      open={Boolean(waybill)}
      onClose={onClose}
      width="min(960px, 100vw)"
      title={waybill?.waybillNum}
      destroyOnHidden
    >
      {waybill && status ? (
        <Tabs
          data-testid="waybill-detail"
          items={[
            { key: 'status', label: t('tab.status'), children: <WaybillTrackStatus status={status} fences={shown} /> },
            { key: 'chart', label: t('tab.chart'), children: <ChartTab status={status} /> },
            { key: 'alarm', label: t('tab.alarm'), children: <AlarmTab status={status} /> },
            { key: 'info', label: t('tab.info'), children: <InfoTab waybill={waybill} onChanged={changed} /> },
            { key: 'budget', label: t('budget:tab'), children: <WaybillBudgetTab waybillId={waybill.id} /> },
            { key: 'share', label: t('tab.share'), children: <SharesTab waybill={waybill} /> },
          ]}
        />
      ) : null}
    </Drawer>
  );
}
