/** Invoice info (personal ordinary / enterprise ordinary) and invoice requests for selected paid orders. */
import { App, Button, Card, Form, Input, Modal, Radio, Select, Space, Switch, Tag } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import {
  insertInvoiceInfo,
  invoiceInfosKey,
  invoiceRequestPageKey,
  money,
  requestInvoice,
  type InvoiceInfo,
  type InvoiceRequest,
  type Order,
} from '@/api/billing';
import { formatTime } from '@/lib/format';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { Permitted } from '@/components/ui/Permitted';
import { useFormSubmit } from '@/hooks/useFormSubmit';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useRead } from '@/hooks/useRead';

const ROUTE = 'consumer.recharge';
const LIMITS: Record<string, number> = {
  billName: 20,
  companyName: 50,
  taxNumber: 20,
  personalName: 30,
  address: 50,
  bankDeposit: 50,
  receiver: 30,
};

function InfoModal({ open, onClose, onSaved }: { open: boolean; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation('billing');
  const [form] = Form.useForm<Omit<InvoiceInfo, 'id'>>();
  const mode = Form.useWatch('billMode', form);
  const { submit, submitting } = useFormSubmit(form, async (values: Omit<InvoiceInfo, 'id'>) => {
    await insertInvoiceInfo(values);
    onSaved();
    onClose();
  });
  const field = (name: keyof typeof LIMITS, required = false) => (
    <Form.Item
      key={name}
      name={name}
      label={t(`invoice.${name}`)}
      rules={[
        { required, message: t(`invoice.${name}`) },
        { max: LIMITS[name], message: t('max', { max: LIMITS[name] }) },
      ]}
    >
      <Input maxLength={LIMITS[name]} data-testid={`invoice-${name}`} />
    </Form.Item>
  );
  return (
    <Modal
      open={open}
      title={t('invoice.add')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={submitting}
      okButtonProps={{ 'data-testid': 'invoice-save' } as Record<string, string>}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ billMode: 'personal', isDefault: true }}>
        <Form.Item name="billMode" label={t('invoice.billMode')}>
          <Radio.Group
            options={(['personal', 'enterprise'] as const).map((m) => ({ value: m, label: t(`billMode.${m}`) }))}
          />
        </Form.Item>
        {field('billName', true)}
        {mode === 'enterprise'
          ? [field('companyName', true), field('taxNumber', true), field('bankDeposit')]
          : field('personalName', true)}
        {field('address')}
        {field('receiver')}
        <Form.Item name="isDefault" label={t('invoice.isDefault')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function InvoicesPanel({ selected, onRequested }: { selected: Order[]; onRequested: () => void }) {
  const { t } = useTranslation('billing');
  const { message } = App.useApp();
  const { data: infos, mutate: reloadInfos } = useRead<InvoiceInfo[]>(invoiceInfosKey());
  const [adding, setAdding] = useState(false);
  const [infoId, setInfoId] = useState<number | undefined>();
  const chosen = infoId ?? infos?.find((i) => i.isDefault)?.id ?? infos?.[0]?.id;
  const { data, loading, pagination, mutate } = usePagedQuery<InvoiceRequest, object>(invoiceRequestPageKey, {});
  const { submit, submitting } = useFormSubmit(null, async () => {
    if (!chosen) return;
    await requestInvoice(
      chosen,
      selected.map((o) => o.id),
    );
    message.success(t('invoice.requested'));
    onRequested();
    void mutate();
  });
  const columns: ListColumn<InvoiceRequest>[] = [
    { key: 'name', title: t('invoice.billName'), render: (_, r) => r.info.billName, card: 'title' },
    { key: 'mode', title: t('invoice.billMode'), render: (_, r) => t(`billMode.${r.info.billMode}`) },
    { key: 'amount', title: t('field.payFee'), render: (_, r) => money(r.amount), important: true },
    { key: 'orders', title: t('invoice.orders'), render: (_, r) => r.orderIds.length },
    {
      key: 'status',
      title: t('field.invoiceStatus'),
      render: (_, r) => <Tag color={r.status === 'issued' ? 'green' : 'blue'}>{t(`invoiceStatus.${r.status}`)}</Tag>,
      important: true,
    },
    { key: 'created', title: t('field.gmtCreate'), render: (_, r) => formatTime(r.gmtCreate) },
  ];
  return (
    <Card title={t('invoice.title')} style={{ marginTop: 16 }} data-testid="invoice-panel">
      <Space wrap style={{ marginBottom: 12 }}>
        <div data-testid="invoice-info">
          <Select
            style={{ width: 260 }}
            placeholder={t('invoice.choose')}
            value={chosen}
            onChange={setInfoId}
            options={(infos ?? []).map((i) => ({
              value: i.id,
              label: `${i.billName} · ${t(`billMode.${i.billMode}`)}`,
            }))}
          />
        </div>
        <Permitted route={ROUTE} action="invoice">
          <Button onClick={() => setAdding(true)} data-testid="invoice-add">
            {t('invoice.add')}
          </Button>
        </Permitted>
        <Permitted route={ROUTE} action="invoice">
          <Button
            type="primary"
            disabled={!chosen}
            loading={submitting}
            onClick={() => void submit(undefined)}
            data-testid="invoice-request"
          >
            {t('invoice.request', { count: selected.length })}
          </Button>
        </Permitted>
      </Space>
      <DataList<InvoiceRequest>
        rowKey="id"
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
        testId="invoice-requests"
      />
      <InfoModal open={adding} onClose={() => setAdding(false)} onSaved={() => void reloadInfos()} />
    </Card>
  );
}
