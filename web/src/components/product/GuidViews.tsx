import { Button, Input, Space } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import {
  deviceTypeOptionsKey,
  exportGuidBatch,
  guidBatchGuidsKey,
  guidBatchPageKey,
  guidDomainsKey,
  guidExportPageKey,
  issueGuidBatch,
  type Domain,
  type DeviceTypeOption,
  type GuidBatch,
  type GuidExportRecord,
  voidGuids,
} from '@/api/product';
import { saveBlob } from '@/api/report';
import { formatTime } from '@/lib/format';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { DrawerForm, type DrawerField } from '@/components/ui/DrawerForm';
import { Permitted } from '@/components/ui/Permitted';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useRead } from '@/hooks/useRead';

const GUID_ROUTE = 'operation.device.guid';
const RECORD_ROUTE = 'operation.device.guidRecord';

type BatchGuid = { deviceGuid: string; claimed: boolean; voided: boolean; voidReason: string | null };

/** Void one unused GUID, with a reason (recorded in the operation log). */
function VoidGuid({ guid, onDone }: { guid: string; onDone: () => void }) {
  const { t } = useTranslation('product');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="link" size="small" danger onClick={() => setOpen(true)} data-testid={`void-${guid}`}>
        {t('guidVoid.action')}
      </Button>
      <DrawerForm<{ reason: string }>
        open={open}
        title={t('guidVoid.title', { guid })}
        fields={[
          {
            type: 'input',
            name: 'reason',
            label: t('guidVoid.reason'),
            maxLength: 200,
            textarea: true,
            rules: [{ required: true, message: t('required') }],
          },
        ]}
        submitText={t('guidVoid.action')}
        onSubmit={async ({ reason }) => {
          await voidGuids([guid], reason);
          onDone();
        }}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

/** The GUIDs of one batch (shown when its row is expanded); an unused one can be voided. */
function BatchGuids({ batchId }: { batchId: number }) {
  const { t } = useTranslation('product');
  const { data, loading, pagination, mutate } = usePagedQuery<BatchGuid, { batchId: number }>(guidBatchGuidsKey, {
    batchId,
  });
  return (
    <DataList<BatchGuid>
      size="small"
      rowKey="deviceGuid"
      testId={`batch-guids-${batchId}`}
      loading={loading}
      pagination={pagination}
      data={data}
      columns={[
        {
          key: 'guid',
          title: 'GUID',
          card: 'title',
          render: (_, row) => <span className="issued-guid">{row.deviceGuid}</span>,
        },
        { key: 'claimed', title: t('field.claimed'), render: (_, row) => (row.claimed ? t('yes') : '-') },
        {
          key: 'voided',
          title: t('guidVoid.state'),
          render: (_, row) => (row.voided ? `${t('guidVoid.voided')}: ${row.voidReason ?? ''}` : '-'),
        },
        {
          key: 'actions',
          title: t('actions'),
          render: (_, row) =>
            row.claimed || row.voided ? null : (
              <Permitted route={GUID_ROUTE} action="edit">
                <VoidGuid guid={row.deviceGuid} onDone={() => void mutate()} />
              </Permitted>
            ),
        },
      ]}
    />
  );
}

/** /operation/device/guid/content: issue GUID batches; download a batch's GUIDs and credentials. */
export function GuidBatchView() {
  const { t } = useTranslation('product');
  const { data: types } = useRead<DeviceTypeOption[]>(deviceTypeOptionsKey());
  const { data: domains } = useRead<Domain[]>(guidDomainsKey());
  const [orderCode, setOrderCode] = useState<string | undefined>(undefined);
  const [issuing, setIssuing] = useState(false);
  const { data, loading, pagination, mutate } = usePagedQuery<GuidBatch, { orderCode?: string }>(guidBatchPageKey, {
    orderCode,
  });
  const download = async (row: GuidBatch, format: 'csv' | 'xlsx') => {
    saveBlob(await exportGuidBatch(row.id, format), `guid-${row.orderCode}.${format}`);
    void mutate();
  };
  const columns: ListColumn<GuidBatch>[] = [
    { key: 'orderCode', title: t('field.orderCode'), dataIndex: 'orderCode', card: 'title' },
    { key: 'typeName', title: t('field.deviceType'), dataIndex: 'typeName' },
    { key: 'num', title: t('field.num'), dataIndex: 'num' },
    { key: 'claimed', title: t('field.claimed'), dataIndex: 'claimed', desktopOnly: true },
    { key: 'deviceTag', title: t('field.deviceTag'), render: (_, row) => row.deviceTag ?? '-', desktopOnly: true },
    { key: 'domain', title: t('field.domain'), dataIndex: 'domainName', desktopOnly: true },
    { key: 'created', title: t('field.gmtCreate'), important: true, render: (_, row) => formatTime(row.gmtCreate) },
    {
      key: 'actions',
      title: t('actions'),
      important: true,
      render: (_, row) => (
        <Permitted route={RECORD_ROUTE} action="add">
          <Space size={0}>
            <Button type="link" size="small" onClick={() => void download(row, 'csv').catch(() => undefined)}>
              CSV
            </Button>
            <Button type="link" size="small" onClick={() => void download(row, 'xlsx').catch(() => undefined)}>
              XLSX
            </Button>
          </Space>
        </Permitted>
      ),
    },
  ];
  // Stable while the drawer is open: new initial values reset the form (DrawerForm).
  const defaultDomain = domains?.[0]?.id;
  const initial = useMemo(() => ({ num: 10, domainId: defaultDomain }), [defaultDomain]);
  const required = { required: true, message: t('required') };
  const fields: DrawerField[] = [
    { type: 'input', name: 'orderCode', label: t('field.orderCode'), maxLength: 20, rules: [required] },
    { type: 'number', name: 'num', label: t('field.num'), min: 1, max: 999, precision: 0, rules: [required] },
    {
      type: 'select',
      name: 'deviceTypeId',
      label: t('field.deviceType'),
      options: (types ?? []).map((type) => ({
        value: type.id,
        label: `${type.typeName} (0x${type.typeCode.toUpperCase()})`,
      })),
      rules: [required],
    },
    { type: 'input', name: 'deviceTag', label: t('field.deviceTag'), maxLength: 50 },
    {
      type: 'select',
      name: 'domainId',
      label: t('field.domain'),
      options: (domains ?? []).map((d) => ({ value: d.id, label: `${d.name} (${d.topDomain})` })),
      rules: [required],
    },
  ];
  return (
    <div data-testid="guid-batch-list">
      <DataList<GuidBatch>
        rowKey="id"
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
        expandable={{ expandedRowRender: (row) => <BatchGuids batchId={row.id} /> }}
        filters={
          <Input
            allowClear
            placeholder={t('field.orderCode')}
            onChange={(e) => setOrderCode(e.target.value || undefined)}
            style={{ width: 200 }}
          />
        }
        actions={
          <Permitted route={GUID_ROUTE} action="add">
            <Button type="primary" onClick={() => setIssuing(true)} data-testid="guid-issue">
              {t('issueGuids')}
            </Button>
          </Permitted>
        }
      />
      <DrawerForm<Record<string, unknown>>
        open={issuing}
        title={t('issueGuids')}
        fields={fields}
        initialValues={initial}
        onClose={() => setIssuing(false)}
        onSubmit={async (v) => {
          await issueGuidBatch({ ...v, deviceTag: v.deviceTag || null });
          void mutate();
        }}
      />
    </div>
  );
}

/** /operation/device/guid/record: every download of a batch's GUIDs and credentials. */
export function GuidRecordView() {
  const { t } = useTranslation('product');
  const [orderCode, setOrderCode] = useState<string | undefined>(undefined);
  const { data, loading, pagination } = usePagedQuery<GuidExportRecord, { orderCode?: string }>(guidExportPageKey, {
    orderCode,
  });
  const columns: ListColumn<GuidExportRecord>[] = [
    { key: 'orderCode', title: t('field.orderCode'), dataIndex: 'orderCode', card: 'title' },
    { key: 'num', title: t('field.num'), dataIndex: 'num' },
    { key: 'format', title: t('field.fileFormat'), render: (_, row) => row.fileFormat.toUpperCase() },
    { key: 'user', title: t('field.userName'), render: (_, row) => row.userName ?? '-' },
    { key: 'created', title: t('field.downloadedAt'), important: true, render: (_, row) => formatTime(row.gmtCreate) },
  ];
  return (
    <div data-testid="guid-record-list">
      <DataList<GuidExportRecord>
        rowKey="id"
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
        filters={
          <Input
            allowClear
            placeholder={t('field.orderCode')}
            onChange={(e) => setOrderCode(e.target.value || undefined)}
            style={{ width: 200 }}
          />
        }
      />
    </div>
  );
}
