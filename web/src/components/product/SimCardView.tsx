import { Button, DatePicker, Input, Modal, Select, Space, Table, Tag, Upload } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import {
  bindSimCard,
  deleteSimCard,
  importSimCards,
  insertSimCard,
  simCardPageKey,
  simImportTemplate,
  updateSimCard,
  type SimCard,
  type SimImportResult,
} from '@/api/product';
import { saveBlob } from '@/api/report';
import { formatDate, formatTime } from '@/lib/format';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { DrawerForm, type DrawerField } from '@/components/ui/DrawerForm';
import { Permitted } from '@/components/ui/Permitted';
import { usePagedQuery } from '@/hooks/usePagedQuery';

const ROUTE = 'operation.device.sim';
const USE_STATES = ['unused', 'in_use', 'suspended', 'cancelled'] as const;
const RECHARGE_STATES = ['not_recharged', 'recharged', 'failed'] as const;
const TIMES = ['openTime', 'activeTime', 'expiredTime'] as const;
type Editing = { kind: 'add' } | { kind: 'edit' | 'bind'; card: SimCard };

/** /operation/sim/list: SIM cards; register, change, bind to a device, import from XLSX. */
export function SimCardView() {
  const { t } = useTranslation('product');
  const [filters, setFilters] = useState<{ keyword?: string; useState?: string }>({});
  const [editing, setEditing] = useState<Editing | null>(null);
  const [imported, setImported] = useState<SimImportResult | null>(null);
  const { data, loading, pagination, mutate } = usePagedQuery<SimCard, typeof filters>(simCardPageKey, filters);
  const money = (cents: number) => (cents / 100).toFixed(2);
  const columns: ListColumn<SimCard>[] = [
    { key: 'iccId', title: 'ICCID', dataIndex: 'iccId', card: 'title' },
    { key: 'cardNum', title: t('field.cardNum'), dataIndex: 'cardNum' },
    { key: 'operator', title: t('field.operator'), render: (_, c) => c.operator ?? '-', desktopOnly: true },
    { key: 'expired', title: t('field.expiredTime'), render: (_, c) => formatDate(c.expiredTime) || '-' },
    { key: 'balance', title: t('field.balance'), render: (_, c) => money(c.balance), desktopOnly: true },
    {
      key: 'lastOnline',
      title: t('field.lastOnline'),
      render: (_, c) => (c.lastOnline ? formatTime(c.lastOnline) : '-'),
      desktopOnly: true,
    },
    { key: 'device', title: t('field.deviceGuid'), render: (_, c) => c.deviceGuid ?? '-' },
    {
      key: 'useState',
      title: t('field.useState'),
      important: true,
      render: (_, c) => <Tag color={c.useState === 'in_use' ? 'green' : 'default'}>{t(`useState.${c.useState}`)}</Tag>,
    },
    {
      key: 'recharge',
      title: t('field.rechargeState'),
      render: (_, c) => t(`rechargeState.${c.rechargeState}`),
      desktopOnly: true,
    },
    {
      key: 'actions',
      title: t('actions'),
      important: true,
      render: (_, c) => (
        <Space size={0} wrap>
          <Permitted route={ROUTE} action="edit">
            <Button type="link" size="small" onClick={() => setEditing({ kind: 'edit', card: c })}>
              {t('edit')}
            </Button>
          </Permitted>
          <Permitted route={ROUTE} action="edit">
            <Button type="link" size="small" onClick={() => setEditing({ kind: 'bind', card: c })}>
              {t('bind')}
            </Button>
          </Permitted>
          {c.deviceGuid ? (
            <ConfirmAction
              route={ROUTE}
              action="edit"
              danger={false}
              title={t('unbindConfirm')}
              onConfirm={() => bindSimCard(c.id, null).then(() => mutate())}
            >
              {t('unbind')}
            </ConfirmAction>
          ) : null}
          <ConfirmAction
            route={ROUTE}
            action="delete"
            title={t('deleteConfirm', { name: c.iccId })}
            onConfirm={() => deleteSimCard(c.id).then(() => mutate())}
          >
            {t('delete')}
          </ConfirmAction>
        </Space>
      ),
    },
  ];
  const required = { required: true, message: t('required') };
  const digits = { pattern: /^[0-9]+$/, message: t('digitsOnly') };
  const options = (name: string, values: readonly string[]) =>
    values.map((value) => ({ value, label: t(`${name}.${value}`) }));
  const fields: DrawerField[] =
    editing?.kind === 'bind'
      ? [
          {
            type: 'input',
            name: 'deviceGuid',
            label: t('field.deviceGuid'),
            maxLength: 20,
            clearSymbols: false,
            rules: [required, digits],
          },
        ]
      : [
          {
            type: 'input',
            name: 'cardNum',
            label: t('field.cardNum'),
            maxLength: 15,
            clearSymbols: false,
            rules: [required, digits],
          },
          {
            type: 'input',
            name: 'iccId',
            label: 'ICCID',
            maxLength: 30,
            clearSymbols: false,
            rules: [required, { pattern: /^[0-9A-Za-z]+$/, message: t('alnumOnly') }],
          },
          { type: 'input', name: 'operator', label: t('field.operator'), maxLength: 30 },
          ...TIMES.map((name): DrawerField => ({
            type: 'slot',
            name,
            label: t(`field.${name}`),
            render: () => <DatePicker style={{ width: '100%' }} />,
          })),
          { type: 'number', name: 'balance', label: t('field.balanceYuan'), min: 0, precision: 2 },
          { type: 'select', name: 'useState', label: t('field.useState'), options: options('useState', USE_STATES) },
          {
            type: 'select',
            name: 'rechargeState',
            label: t('field.rechargeState'),
            options: options('rechargeState', RECHARGE_STATES),
          },
          { type: 'input', name: 'remark', label: t('field.remark'), maxLength: 100, textarea: true },
        ];
  const card = editing && editing.kind !== 'add' ? editing.card : null;
  const initial = useMemo<Record<string, unknown>>(
    () =>
      card
        ? {
            ...card,
            ...Object.fromEntries(TIMES.map((name) => [name, card[name] ? dayjs(card[name]) : null])),
            deviceGuid: card.deviceGuid ?? '',
            balance: card.balance / 100, // the api keeps cents; people write yuan
          }
        : { balance: 0, useState: 'unused', rechargeState: 'not_recharged' },
    [card],
  );
  const submit = async (v: Record<string, unknown>) => {
    if (editing?.kind === 'bind') {
      await bindSimCard(editing.card.id, String(v.deviceGuid));
    } else {
      const blank = (x: unknown) => (x === '' || x === undefined ? null : x);
      const body = {
        cardNum: v.cardNum,
        iccId: v.iccId,
        operator: blank(v.operator),
        ...Object.fromEntries(TIMES.map((name) => [name, v[name] ? (v[name] as Dayjs).format() : null])),
        balance: Math.round(Number(v.balance ?? 0) * 100),
        useState: v.useState,
        rechargeState: v.rechargeState,
        remark: blank(v.remark),
      };
      if (card) await updateSimCard({ id: card.id, ...body });
      else await insertSimCard(body);
    }
    void mutate();
  };
  return (
    <div data-testid="sim-card-list">
      <DataList<SimCard>
        rowKey="id"
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
        filters={
          <Space wrap>
            <Input
              allowClear
              placeholder={t('simKeyword')}
              onChange={(e) => setFilters((f) => ({ ...f, keyword: e.target.value || undefined }))}
              style={{ width: 220 }}
            />
            <Select
              allowClear
              placeholder={t('field.useState')}
              options={options('useState', USE_STATES)}
              onChange={(v?: string) => setFilters((f) => ({ ...f, useState: v }))}
              style={{ width: 150 }}
            />
          </Space>
        }
        actions={
          <Space wrap>
            <Permitted route={ROUTE} action="add">
              <Button
                onClick={() =>
                  void simImportTemplate()
                    .then((blob) => saveBlob(blob, 'sim-import-template.xlsx'))
                    .catch(() => undefined)
                }
                data-testid="sim-template"
              >
                {t('simTemplate')}
              </Button>
            </Permitted>
            <Permitted route={ROUTE} action="add">
              <Upload
                accept=".xlsx"
                showUploadList={false}
                beforeUpload={(file) => {
                  importSimCards(file)
                    .then((result) => {
                      setImported(result);
                      void mutate();
                    })
                    .catch(() => undefined);
                  return false;
                }}
              >
                <Button data-testid="sim-import">{t('importXlsx')}</Button>
              </Upload>
            </Permitted>
            <Permitted route={ROUTE} action="add">
              <Button type="primary" onClick={() => setEditing({ kind: 'add' })} data-testid="sim-add">
                {t('addSim')}
              </Button>
            </Permitted>
          </Space>
        }
      />
      <DrawerForm<Record<string, unknown>>
        key={editing ? `${editing.kind}-${card?.id ?? 'new'}` : 'closed'}
        open={Boolean(editing)}
        title={editing ? t(`simTitle.${editing.kind}`) : ''}
        fields={fields}
        initialValues={initial}
        onClose={() => setEditing(null)}
        onSubmit={submit}
      />
      <Modal
        open={Boolean(imported)}
        title={t('importResult', { count: imported?.imported ?? 0 })}
        footer={null}
        onCancel={() => setImported(null)}
        width={640}
      >
        <Table
          size="small"
          rowKey="row"
          pagination={false}
          dataSource={imported?.rows ?? []}
          columns={[
            { key: 'row', title: t('field.row'), dataIndex: 'row' },
            { key: 'iccId', title: 'ICCID', render: (_, r) => r.iccId ?? '-' },
            {
              key: 'ok',
              title: t('field.result'),
              render: (_, r) => (r.ok ? <Tag color="green">{t('imported')}</Tag> : <Tag color="red">{r.message}</Tag>),
            },
          ]}
        />
      </Modal>
    </div>
  );
}
