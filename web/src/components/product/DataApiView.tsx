import { Alert, Button, Input, Modal, Select, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { systemUserListKey, type SystemUser } from '@/api/operation';
import type { Page } from '@/components/ui/table';
import { dataApiKeyPageKey, insertDataApiKey, revokeDataApiKey, type DataApiKey } from '@/api/product';
import { formatTime } from '@/lib/format';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { DrawerForm, type DrawerField } from '@/components/ui/DrawerForm';
import { Permitted } from '@/components/ui/Permitted';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useRead } from '@/hooks/useRead';

const ROUTE = 'operation.device.dataApi';
const INITIAL = { ratePerMinute: 60 };

/** The account a key reads: searched among the accounts the operator runs. */
function AccountPicker({ value, onChange }: { value?: number; onChange?: (id: number) => void }) {
  const { t } = useTranslation('product');
  const [keyword, setKeyword] = useState('');
  const { data } = useRead<Page<SystemUser>>(
    systemUserListKey({ start: 1, pageSize: 20, keyword: keyword || undefined }),
  );
  return (
    <Select
      showSearch
      filterOption={false}
      value={value}
      placeholder={t('field.account')}
      onSearch={setKeyword}
      onChange={onChange}
      options={(data?.list ?? []).map((user) => ({
        value: user.id,
        label: `${user.userName}${user.companyName ? ` (${user.companyName})` : ''}`,
      }))}
    />
  );
}

/** /operation/dataApi: keys a customer's own system reads its devices with (header X-Api-Key). */
export function DataApiView() {
  const { t } = useTranslation('product');
  const [keyword, setKeyword] = useState<string | undefined>(undefined);
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<DataApiKey | null>(null);
  const { data, loading, pagination, mutate } = usePagedQuery<DataApiKey, { keyword?: string }>(dataApiKeyPageKey, {
    keyword,
  });
  const columns: ListColumn<DataApiKey>[] = [
    { key: 'name', title: t('field.keyName'), dataIndex: 'name', card: 'title' },
    { key: 'user', title: t('field.account'), dataIndex: 'userName' },
    {
      key: 'prefix',
      title: t('field.keyPrefix'),
      render: (_, k) => <Typography.Text code>{k.keyPrefix}…</Typography.Text>,
    },
    { key: 'rate', title: t('field.ratePerMinute'), dataIndex: 'ratePerMinute', desktopOnly: true },
    {
      key: 'used',
      title: t('field.lastUsedTime'),
      render: (_, k) => (k.lastUsedTime ? formatTime(k.lastUsedTime) : '-'),
    },
    {
      key: 'state',
      title: t('field.keyState'),
      important: true,
      render: (_, k) =>
        k.revokedTime ? <Tag color="red">{t('revoked')}</Tag> : <Tag color="green">{t('active')}</Tag>,
    },
    {
      key: 'actions',
      title: t('actions'),
      important: true,
      render: (_, k) =>
        k.revokedTime ? null : (
          <ConfirmAction
            route={ROUTE}
            action="edit"
            title={t('revokeConfirm', { name: k.name })}
            onConfirm={() => revokeDataApiKey(k.id).then(() => mutate())}
          >
            {t('revoke')}
          </ConfirmAction>
        ),
    },
  ];
  const fields: DrawerField[] = [
    { type: 'slot', name: 'accountId', label: t('field.account'), render: () => <AccountPicker /> },
    {
      type: 'input',
      name: 'name',
      label: t('field.keyName'),
      maxLength: 50,
      rules: [{ required: true, message: t('required') }],
    },
    { type: 'number', name: 'ratePerMinute', label: t('field.ratePerMinute'), min: 1, max: 600, precision: 0 },
  ];
  return (
    <div data-testid="data-api-list">
      <Alert type="info" showIcon style={{ marginBottom: 12 }} message={t('dataApiHint')} />
      <DataList<DataApiKey>
        rowKey="id"
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
        filters={
          <Input
            allowClear
            placeholder={t('keyword')}
            onChange={(e) => setKeyword(e.target.value || undefined)}
            style={{ width: 200 }}
          />
        }
        actions={
          <Permitted route={ROUTE} action="add">
            <Button type="primary" onClick={() => setAdding(true)} data-testid="data-api-add">
              {t('addKey')}
            </Button>
          </Permitted>
        }
      />
      <DrawerForm<Record<string, unknown>>
        open={adding}
        title={t('addKey')}
        fields={fields}
        initialValues={INITIAL}
        onClose={() => setAdding(false)}
        onSubmit={async (v) => {
          setCreated(
            await insertDataApiKey({ accountId: v.accountId, name: v.name, ratePerMinute: v.ratePerMinute ?? 60 }),
          );
          void mutate();
        }}
      />
      <Modal open={Boolean(created)} title={t('keyCreated')} footer={null} onCancel={() => setCreated(null)}>
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Alert type="warning" showIcon message={t('keyOnce')} />
          <Typography.Paragraph copyable code data-testid="data-api-secret">
            {created?.secret}
          </Typography.Paragraph>
        </Space>
      </Modal>
    </div>
  );
}
