import { UploadOutlined } from '@ant-design/icons';
import {
  App,
  Button,
  Card,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Upload,
} from 'antd';
import Link from 'next/link';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import {
  allOrdersKey,
  cancelCheck,
  confirmCalibration,
  handleQuickOrder,
  importCert,
  insertResults,
  LAB_KEY,
  quickOrdersKey,
  resultsKey,
  setStatus,
  STATUS,
  updateResult,
  uploadReport,
  type Application,
  type ApplicationDetail,
  type ItemResults,
  type OrderQuery,
  type PointInput,
  type QuickOrder,
} from '@/api/calibration';
import { ErrorView } from '@/components/errors/ErrorView';
import { formatTime } from '@/lib/format';
import { useSession } from '@/lib/SessionContext';
import { DataList } from '@/components/ui/DataList';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useRead } from '@/hooks/useRead';
import { NumberRangeError } from '@/components/ui/NumberRangeError';
import { inRange, rangeRules } from '@/components/ui/rangeRules';
import { orderColumns, statusOptions } from './parts';
import { useCertificateDownload } from './useCertificateDownload';

/** The longest validity of a calibration certificate, months. */
const VALID_MONTHS_MAX = 60;

/** The lab's status moves (the api's table, api/calibration/states.py): from -> [to, label key]. */
const LAB_MOVES: Record<number, [number, string][]> = {
  [STATUS.submitted]: [
    [STATUS.confirmed, 'admin.confirmOrder'],
    [STATUS.rejected, 'admin.reject'],
  ],
  [STATUS.shipped]: [[STATUS.received, 'admin.received']],
  [STATUS.received]: [[STATUS.calibrating, 'admin.start']],
};

/** Lab pages need the lab's keys (a customer's token sees the 403 page). */
export function LabOnly({ children }: { children: React.ReactNode }) {
  const session = useSession();
  const granted = session.info?.permissionRoutes ?? [];
  if (!granted.some((key) => key === LAB_KEY || key.startsWith(`${LAB_KEY}.`)))
    return <ErrorView status={403} home="/calibration/home" />;
  return <>{children}</>;
}

export function AdminActions({ order, onDone }: { order: ApplicationDetail; onDone: () => void }) {
  const { t } = useTranslation('calibration');
  const [months, setMonths] = useState(12);
  const monthsInRange = inRange(months, 1, VALID_MONTHS_MAX);
  const moves = LAB_MOVES[order.calibrationStatus] ?? [];
  return (
    <Card title={t('admin.actions')} size="small" data-testid="calibration-admin-actions">
      <Space wrap>
        {moves.map(([target, label]) => (
          <Popconfirm
            key={target}
            title={t(label)}
            onConfirm={async () => (await setStatus(order.applicationId, target)) && onDone()}
          >
            <Button
              type={target === STATUS.rejected ? 'default' : 'primary'}
              danger={target === STATUS.rejected}
              data-testid={`calibration-move-${target}`}
            >
              {t(label)}
            </Button>
          </Popconfirm>
        ))}
        {order.cancelRequested ? (
          <>
            {/* Approving refunds a paid application at once: asked first, like every refund. */}
            <Popconfirm
              title={t('cancel.approveConfirm')}
              onConfirm={async () => (await cancelCheck(order.applicationId, true, t('cancel.approved'))) && onDone()}
            >
              <Button danger data-testid="calibration-cancel-approve">
                {t('cancel.approve')}
              </Button>
            </Popconfirm>
            <Button
              onClick={async () => (await cancelCheck(order.applicationId, false, t('cancel.refused'))) && onDone()}
            >
              {t('cancel.refuse')}
            </Button>
          </>
        ) : null}
        {order.calibrationStatus === STATUS.calibrating ? (
          <Space>
            {/* No min/max: the certificate's validity would be clamped unseen (issue 47); refused instead. */}
            <InputNumber
              precision={0}
              status={monthsInRange ? undefined : 'error'}
              value={months}
              onChange={(v) => setMonths(v ?? 12)}
              addonAfter={t('admin.months')}
              style={{ width: 160 }}
            />
            <NumberRangeError value={months} min={1} max={VALID_MONTHS_MAX} />
            <Popconfirm
              title={t('admin.confirmCalibration')}
              onConfirm={async () => (await confirmCalibration(order.applicationId, months)) && onDone()}
            >
              <Button type="primary" disabled={!monthsInRange} data-testid="calibration-confirm">
                {t('admin.confirmCalibration')}
              </Button>
            </Popconfirm>
          </Space>
        ) : null}
        {order.calibrationStatus >= STATUS.confirmed && order.calibrationStatus <= STATUS.completed ? (
          <Upload
            accept="application/pdf"
            showUploadList={false}
            beforeUpload={(file) => {
              void uploadReport(order.applicationId, file).then((answer) => answer && onDone());
              return false;
            }}
          >
            <Button icon={<UploadOutlined />}>{t('admin.uploadReport')}</Button>
          </Upload>
        ) : null}
      </Space>
    </Card>
  );
}

interface Row {
  pointNo: number;
  resultId?: number;
  reference: number;
  reading?: number;
  uncertainty?: number;
  passed: boolean;
}

function ItemResultForm({ entry, editable, onDone }: { entry: ItemResults; editable: boolean; onDone: () => void }) {
  const { t } = useTranslation('calibration');
  const [busy, setBusy] = useState(false);
  const { item } = entry;
  const recorded = new Map(entry.results.map((r) => [r.pointNo, r]));
  const planned = item.points.map((_, index) => index + 1);
  const numbers = Array.from(new Set([...planned, ...recorded.keys()])).sort((a, b) => a - b);
  const rows: Row[] = numbers.map((pointNo) => {
    const result = recorded.get(pointNo);
    return result
      ? {
          pointNo,
          resultId: result.resultId,
          reference: result.reference,
          reading: result.reading,
          uncertainty: result.uncertainty,
          passed: result.passed,
        }
      : { pointNo, reference: item.points[pointNo - 1] ?? 0, passed: true };
  });
  const save = async (values: { rows: Row[] }) => {
    setBusy(true);
    try {
      const fresh: PointInput[] = [];
      // Submitted values hold the form's fields only: the point number and result id come from `rows`.
      for (const [index, row] of values.rows.entries()) {
        const { pointNo, resultId } = rows[index];
        if (
          row.reading === undefined ||
          row.reading === null ||
          row.uncertainty === undefined ||
          row.uncertainty === null
        )
          continue;
        const point: PointInput = {
          pointNo,
          reference: row.reference,
          reading: row.reading,
          uncertainty: row.uncertainty,
          passed: row.passed,
        };
        if (resultId) await updateResult({ ...point, resultId });
        else fresh.push(point);
      }
      if (fresh.length) await insertResults(item.itemId, fresh);
      onDone();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card
      size="small"
      type="inner"
      title={`${item.deviceModel} · ${item.serial}`}
      style={{ marginBottom: 12 }}
      extra={
        editable ? (
          <Upload
            accept="application/pdf"
            showUploadList={false}
            beforeUpload={(file) => {
              void importCert(item.itemId, file).then((answer) => answer && onDone());
              return false;
            }}
          >
            <Button size="small" icon={<UploadOutlined />}>
              {t('admin.importCert')}
            </Button>
          </Upload>
        ) : null
      }
    >
      <Form<{ rows: Row[] }>
        initialValues={{ rows }}
        onFinish={save}
        disabled={!editable}
        data-testid={`calibration-results-${item.itemId}`}
      >
        <Form.List name="rows">
          {(fields) => (
            <Table
              size="small"
              pagination={false}
              scroll={{ x: true }}
              rowKey="key"
              dataSource={fields}
              columns={[
                { key: 'no', title: t('result.pointNo'), render: (_, field) => rows[field.name]?.pointNo },
                {
                  key: 'ref',
                  title: `${t('result.reference')} (${item.unit})`,
                  render: (_, field) => (
                    <Form.Item name={[field.name, 'reference']} noStyle rules={[{ required: true }]}>
                      <InputNumber step={0.01} style={{ width: 100 }} />
                    </Form.Item>
                  ),
                },
                {
                  key: 'reading',
                  title: `${t('result.reading')} (${item.unit})`,
                  render: (_, field) => (
                    <Form.Item name={[field.name, 'reading']} noStyle>
                      <InputNumber
                        step={0.01}
                        style={{ width: 100 }}
                        data-testid={`calibration-reading-${item.itemId}-${field.name}`}
                      />
                    </Form.Item>
                  ),
                },
                {
                  key: 'u',
                  title: `${t('result.uncertainty')} (${item.unit})`,
                  render: (_, field) => (
                    // Not noStyle: the range refusal needs an item of its own to show under.
                    <Form.Item name={[field.name, 'uncertainty']} rules={rangeRules(t, 0)} style={{ margin: 0 }}>
                      <InputNumber
                        step={0.01}
                        style={{ width: 100 }}
                        data-testid={`calibration-uncertainty-${item.itemId}-${field.name}`}
                      />
                    </Form.Item>
                  ),
                },
                {
                  key: 'pass',
                  title: t('result.passed'),
                  render: (_, field) => (
                    <Form.Item name={[field.name, 'passed']} valuePropName="checked" noStyle>
                      <Switch checkedChildren={t('result.pass')} unCheckedChildren={t('result.fail')} />
                    </Form.Item>
                  ),
                },
                {
                  key: 'error',
                  title: t('result.error'),
                  render: (_, field) => {
                    const saved = entry.results.find((r) => r.pointNo === rows[field.name]?.pointNo);
                    return saved ? saved.error.toFixed(3) : '-';
                  },
                },
              ]}
            />
          )}
        </Form.List>
        {editable ? (
          <Button
            type="primary"
            htmlType="submit"
            loading={busy}
            style={{ marginTop: 8 }}
            data-testid={`calibration-save-results-${item.itemId}`}
          >
            {t('result.save')}
          </Button>
        ) : null}
      </Form>
    </Card>
  );
}

/** Recording results per point (the enter-certificate link lands here). */
export function ResultsEditor({ order, onDone }: { order: ApplicationDetail; onDone: () => void }) {
  const { t } = useTranslation('calibration');
  const { data, mutate } = useRead<ItemResults[]>(resultsKey(order.applicationId));
  const editable = order.calibrationStatus === STATUS.received || order.calibrationStatus === STATUS.calibrating;
  const done = () => {
    void mutate();
    onDone();
  };
  return (
    <Card title={t('result.title')} size="small" id="results" data-testid="calibration-results">
      {!editable && order.calibrationStatus < STATUS.received ? <Tag>{t('result.notYet')}</Tag> : null}
      {(data ?? []).map((entry) => (
        <ItemResultForm
          key={`${entry.item.itemId}-${entry.results.map((r) => `${r.resultId}:${r.reading}`).join(',')}`}
          entry={entry}
          editable={editable}
          onDone={done}
        />
      ))}
    </Card>
  );
}

/** /calibration/admin/orders: every order of the site. */
export function AdminOrdersView() {
  const { t } = useTranslation('calibration');
  const [keyword, setKeyword] = useState('');
  const [status, setStatusFilter] = useState<number | null>(null);
  const download = useCertificateDownload();
  const list = usePagedQuery<Application, Partial<OrderQuery>>(allOrdersKey, {
    keyword: keyword.trim() || null,
    status,
  });
  return (
    <Card title={t('nav.allOrders')} extra={<Link href="/calibration/admin/quick">{t('nav.quickList')}</Link>}>
      <DataList<Application>
        rowKey="applicationId"
        testId="calibration-admin-orders"
        columns={[
          ...orderColumns(
            t,
            (row) => `/calibration/admin/order/${row.applicationId}`,
            (row) => download(row),
          ),
          {
            key: 'cancel',
            title: t('cancel.column'),
            render: (_, row) => (row.cancelRequested ? <Tag color="warning">{t('cancel.pending')}</Tag> : null),
          },
        ]}
        data={list.data}
        loading={list.loading}
        pagination={list.pagination}
        filters={
          <>
            <Input
              allowClear
              placeholder={t('admin.search')}
              value={keyword}
              onChange={(e) => setKeyword(e.target.value)}
              style={{ width: 220 }}
            />
            <Select
              allowClear
              placeholder={t('order.status')}
              value={status}
              onChange={(v) => setStatusFilter(v ?? null)}
              options={statusOptions(t)}
              style={{ width: 200 }}
            />
          </>
        }
      />
    </Card>
  );
}

/** /calibration/admin/quick: the quick orders; handling one records that the customer was contacted. */
export function AdminQuickView() {
  const { t } = useTranslation('calibration');
  const { message } = App.useApp();
  const [status, setStatusFilter] = useState<string | null>('pending');
  const list = usePagedQuery<QuickOrder, { status: string | null }>(quickOrdersKey, { status });
  const handle = async (row: QuickOrder, next: 'handled' | 'closed') => {
    if (await handleQuickOrder(row.quickOrderId, next)) {
      void message.success(t('saved'));
      void list.mutate();
    }
  };
  return (
    <Card title={t('nav.quickList')} extra={<Link href="/calibration/admin/orders">{t('nav.allOrders')}</Link>}>
      <DataList<QuickOrder>
        rowKey="quickOrderId"
        testId="calibration-quick-orders"
        data={list.data}
        loading={list.loading}
        pagination={list.pagination}
        filters={
          <Select
            allowClear
            value={status}
            onChange={(v) => setStatusFilter(v ?? null)}
            style={{ width: 160 }}
            options={(['pending', 'handled', 'closed'] as const).map((s) => ({
              value: s,
              label: t(`quick.status.${s}`),
            }))}
          />
        }
        columns={[
          { key: 'no', title: t('order.orderNo'), important: true, card: 'title', render: (_, row) => row.orderNo },
          {
            key: 'contact',
            title: t('base.contact'),
            important: true,
            render: (_, row) => `${row.contact} ${row.phone}`,
          },
          { key: 'company', title: t('base.company'), render: (_, row) => row.company ?? '-' },
          {
            key: 'model',
            title: t('item.deviceModel'),
            render: (_, row) => `${row.deviceModel ?? '-'} × ${row.quantity}`,
          },
          { key: 'remark', title: t('base.remark'), long: true, render: (_, row) => row.remark ?? '' },
          {
            key: 'created',
            title: t('order.created'),
            desktopOnly: true,
            render: (_, row) => formatTime(row.gmtCreate),
          },
          { key: 'status', title: t('order.status'), render: (_, row) => <Tag>{t(`quick.status.${row.status}`)}</Tag> },
          {
            key: 'actions',
            title: t('order.actions'),
            important: true,
            render: (_, row) =>
              row.status === 'pending' ? (
                <Space>
                  <Button
                    size="small"
                    type="primary"
                    onClick={() => void handle(row, 'handled')}
                    data-testid={`calibration-handle-${row.orderNo}`}
                  >
                    {t('quick.handle')}
                  </Button>
                  <Button size="small" onClick={() => void handle(row, 'closed')}>
                    {t('quick.close')}
                  </Button>
                </Space>
              ) : (
                (row.handleNote ?? null)
              ),
          },
        ]}
      />
    </Card>
  );
}
