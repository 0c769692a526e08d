import { Button, DatePicker, Form, Input, InputNumber, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import {
  disposeLot,
  insertLot,
  lotBudgetKey,
  lotPageKey,
  profilePageKey,
  type ProfilePage,
  type StabilityBudget,
  type StorageLot,
} from '@/api/budget';
import type { Page } from '@/components/ui/table';
import { Permitted } from '@/components/ui/Permitted';
import { rangeRules } from '@/components/ui/rangeRules';
import { useRead } from '@/hooks/useRead';
import { formatTime, isoWithOffset } from '@/lib/format';
import { showServerErrors } from '@/lib/serverErrors';
import { BudgetFigures } from './BudgetPanel';

const STORAGE = 'storage.list';

/** One lot's budget (its storage's probes, the worst per band) and, once decided, its disposition. */
function LotBudget({ lot, onChanged }: { lot: StorageLot; onChanged: () => void }) {
  const { t } = useTranslation('budget');
  const { data: budget, mutate } = useRead<StabilityBudget>(lotBudgetKey(lot.id ?? 0), { refreshInterval: 60_000 });
  const [reason, setReason] = useState('');
  const dispose = async (disposition: 'released' | 'quarantined' | 'rejected') => {
    await disposeLot(lot.id ?? 0, disposition, reason);
    await mutate();
    onChanged();
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid={`lot-budget-${lot.id}`}>
      {budget ? <BudgetFigures budget={budget} /> : null}
      <Permitted route={STORAGE} action="edit">
        <Space wrap>
          <Input
            placeholder={t('lot.reason')}
            maxLength={200}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            style={{ width: 260 }}
          />
          <Button type="primary" onClick={() => void dispose('released')}>
            {t('lot.release')}
          </Button>
          <Button onClick={() => void dispose('quarantined')}>{t('lot.quarantine')}</Button>
          <Button danger onClick={() => void dispose('rejected')}>
            {t('lot.reject')}
          </Button>
        </Space>
      </Permitted>
    </Space>
  );
}

interface LotValues {
  product: string;
  lotNumber?: string;
  quantity: number;
  placedAt: Dayjs;
  profileId?: number;
}

function LotForm({ storageId, open, onClose }: { storageId: number; open: boolean; onClose: () => void }) {
  const { t } = useTranslation('budget');
  const [form] = Form.useForm<LotValues>();
  const { data: profiles } = useRead<ProfilePage>(open ? profilePageKey({ start: 1, pageSize: 200 }) : null);
  const save = async () => {
    const values = await form.validateFields();
    try {
      await insertLot({
        storageId,
        product: values.product,
        lotNumber: values.lotNumber ?? null,
        quantity: values.quantity,
        placedAt: isoWithOffset(values.placedAt.toDate()),
        removedAt: null,
        profileId: values.profileId ?? null,
      });
      form.resetFields();
      onClose();
    } catch (error) {
      if (!showServerErrors(form, error)) throw error;
    }
  };
  return (
    <Modal open={open} onCancel={onClose} onOk={() => void save()} title={t('lots')} destroyOnHidden>
      <Form form={form} layout="vertical" data-testid="lot-form">
        <Form.Item name="product" label={t('lot.product')} rules={[{ required: true, max: 50 }]}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="lotNumber" label={t('lot.lotNumber')} rules={[{ max: 50 }]}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item
          name="quantity"
          label={t('lot.quantity')}
          rules={[{ required: true }, ...rangeRules(t, 1, 1_000_000_000)]}
        >
          <InputNumber />
        </Form.Item>
        <Form.Item name="placedAt" label={t('lot.placedAt')} rules={[{ required: true }]}>
          <DatePicker showTime />
        </Form.Item>
        <Form.Item name="profileId" label={t('profile')}>
          <Select allowClear options={(profiles?.list ?? []).map((p) => ({ value: p.id, label: p.name }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The storage detail's lots: each with its stability budget and disposition. */
export function StorageLotsTab({ storageId }: { storageId: number }) {
  const { t } = useTranslation('budget');
  const { data, mutate } = useRead<Page<StorageLot>>(lotPageKey(storageId));
  const [adding, setAdding] = useState(false);
  const lots = (data?.list ?? []).map((lot) => ({ ...lot, key: lot.id }));
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="storage-lots">
      <Permitted route={STORAGE} action="add">
        <Button onClick={() => setAdding(true)}>{t('lots')} +</Button>
      </Permitted>
      <Table
        size="small"
        dataSource={lots}
        pagination={false}
        locale={{ emptyText: t('lot.none') }}
        expandable={{ expandedRowRender: (lot) => <LotBudget lot={lot} onChanged={() => void mutate()} /> }}
        columns={[
          { title: t('lot.product'), dataIndex: 'product' },
          { title: t('lot.lotNumber'), dataIndex: 'lotNumber', render: (value?: string | null) => value ?? '-' },
          { title: t('lot.quantity'), dataIndex: 'quantity' },
          { title: t('lot.placedAt'), dataIndex: 'placedAt', render: (value: string) => formatTime(value) },
          {
            title: t('lot.removedAt'),
            dataIndex: 'removedAt',
            render: (value?: string | null) => (value ? formatTime(value) : '-'),
          },
          {
            title: t('disposition'),
            dataIndex: 'disposition',
            render: (value?: string | null) =>
              value ? <Tag>{t(`dispositions.${value}`)}</Tag> : <Typography.Text type="secondary">-</Typography.Text>,
          },
        ]}
      />
      <LotForm
        storageId={storageId}
        open={adding}
        onClose={() => {
          setAdding(false);
          void mutate();
        }}
      />
    </Space>
  );
}
