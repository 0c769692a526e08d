import { App, Button, Checkbox, Form, Input, Modal, Space, Table, Tabs, Tag } from 'antd';
import Link from 'next/link';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { useTemplateCodes, useTemplates } from '@/hooks/resources';
import {
  decideTransfer,
  deleteShare,
  deleteTemplate,
  quitShare,
  receivedSharesKey,
  saveTemplate,
  sharePageKey,
  transferPageKey,
  type PermissionTemplate,
  type Share,
  type Transfer,
} from '@/api/organization';
import { showServerErrors } from '@/lib/serverErrors';
import { formatTime } from '@/lib/format';
import { Permitted } from '@/components/ui/Permitted';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import type { DevicePermission } from '@/routes/permissions';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { useFormSubmit } from '@/hooks/useFormSubmit';
import { SymbolFreeInput } from '@/components/ui/SymbolFreeInput';

function recipientOf(share: Share): string {
  return share.recipientName ?? share.recipientPhone ?? share.recipientEmail ?? '-';
}

function SharesTable({ received }: { received: boolean }) {
  const { t } = useTranslation('organization');
  const [keyword, setKeyword] = useState('');
  const { data, loading, pagination, mutate } = usePagedQuery<Share, { keyword?: string }>(
    received ? receivedSharesKey : sharePageKey,
    { keyword: keyword || undefined },
  );
  const columns: ListColumn<Share>[] = [
    {
      key: 'device',
      title: t('device.name'),
      render: (_, s) => (received ? <Link href={`/device/detail/${s.deviceId}`}>{s.deviceName}</Link> : s.deviceName),
    },
    { key: 'guid', title: t('device.guid'), dataIndex: 'deviceGuid', responsive: ['md'] },
    { key: 'sharer', title: t('share.sharerName'), dataIndex: 'sharerName' },
    ...(received
      ? []
      : [{ key: 'recipient', title: t('share.recipient'), render: (_: unknown, s: Share) => recipientOf(s) }]),
    { key: 'template', title: t('share.template'), dataIndex: 'templateName' },
    {
      key: 'expire',
      title: t('share.expireTime'),
      render: (_, s) => (
        <Space>
          {formatTime(s.expireTime)}
          {s.expired ? <Tag color="default">{t('share.expired')}</Tag> : null}
        </Space>
      ),
    },
    {
      key: 'actions',
      title: t('actions'),
      render: (_, s) =>
        received ? (
          <ConfirmAction
            route="device.list"
            action="query"
            title={t('share.quitConfirm')}
            onConfirm={() => quitShare(s.id).then(() => mutate())}
          >
            {t('share.quit')}
          </ConfirmAction>
        ) : (
          <ConfirmAction
            route="consumer.sharer"
            action="delete"
            title={t('share.revokeConfirm')}
            onConfirm={() => deleteShare(s.id).then(() => mutate())}
          >
            {t('share.revoke')}
          </ConfirmAction>
        ),
    },
  ];
  return (
    <>
      <Input
        allowClear
        placeholder={t('share.search')}
        value={keyword}
        onChange={(e) => setKeyword(e.target.value)}
        style={{ width: 220, marginBottom: 12 }}
      />
      <DataList<Share> rowKey="id" columns={columns} data={data} loading={loading} pagination={pagination} />
    </>
  );
}

interface CodeRow {
  code: string;
  label: string;
  writable: boolean;
}

function TemplateEditor({
  template,
  open,
  onClose,
}: {
  template: PermissionTemplate | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('organization');
  const { t: td } = useTranslation('device');
  const [form] = Form.useForm<{ name: string }>();
  const { data: codes } = useTemplateCodes(open);
  const [items, setItems] = useState<Record<string, DevicePermission>>(() =>
    Object.fromEntries((template?.items ?? []).map((item) => [item.permissionCode, item])),
  );
  const rows: CodeRow[] = [
    ...(codes?.params ?? []).map((p) => ({ code: p.code, label: `${p.name} (${p.code})`, writable: p.writable })),
    ...(codes?.blocks ?? []).map((block) => ({
      code: block,
      label: td(`tabs.${block}`, { defaultValue: t(`share.block.${block}`) }),
      writable: false,
    })),
  ];
  const set = (code: string, patch: Partial<DevicePermission>) =>
    setItems((current) => {
      const base: DevicePermission = current[code] ?? { permissionCode: code, viewStatus: 0, setStatus: 0 };
      return { ...current, [code]: { ...base, ...patch } };
    });
  const submit = async ({ name }: { name: string }) => {
    try {
      await saveTemplate({ id: template?.id, name, items: Object.values(items) });
      onClose();
    } catch (error) {
      showServerErrors(form, error);
    }
  };
  // Spec 9: every form and modal submits once per 500 ms.
  const { submit: submitOnce } = useFormSubmit(null, submit);
  return (
    <Modal
      open={open}
      title={template ? t('template.edit') : t('template.add')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('save')}
      cancelText={t('cancel')}
      width={560}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submitOnce} initialValues={{ name: template?.name ?? '' }}>
        <Form.Item
          name="name"
          label={t('template.name')}
          rules={[{ required: true, max: 10, message: t('max', { max: 10 }) }]}
        >
          <SymbolFreeInput maxLength={10} data-testid="template-name" />
        </Form.Item>
      </Form>
      <Table<CodeRow>
        rowKey="code"
        size="small"
        pagination={false}
        dataSource={rows}
        columns={[
          { key: 'label', title: t('template.item'), dataIndex: 'label' },
          {
            key: 'view',
            title: t('template.visible'),
            render: (_, row) => (
              <Checkbox
                checked={items[row.code]?.viewStatus === 1}
                onChange={(e) =>
                  set(row.code, { viewStatus: e.target.checked ? 1 : 0, ...(e.target.checked ? {} : { setStatus: 0 }) })
                }
              />
            ),
          },
          {
            key: 'set',
            title: t('template.operable'),
            render: (_, row) => (
              <Checkbox
                disabled={!row.writable || items[row.code]?.viewStatus !== 1}
                checked={items[row.code]?.setStatus === 1}
                onChange={(e) => set(row.code, { setStatus: e.target.checked ? 1 : 0 })}
              />
            ),
          },
        ]}
      />
    </Modal>
  );
}

function TemplatesTable() {
  const { t } = useTranslation('organization');
  const { data, isLoading, mutate } = useTemplates();
  const [editing, setEditing] = useState<{ template: PermissionTemplate | null } | null>(null);
  const columns: ListColumn<PermissionTemplate>[] = [
    { key: 'name', title: t('template.name'), dataIndex: 'name' },
    {
      key: 'visible',
      title: t('template.visibleCount'),
      render: (_, tpl) => tpl.items.filter((i) => i.viewStatus === 1).length,
    },
    {
      key: 'operable',
      title: t('template.operableCount'),
      render: (_, tpl) => tpl.items.filter((i) => i.setStatus === 1).length,
    },
    {
      key: 'actions',
      title: t('actions'),
      render: (_, tpl) => (
        <Space size={0}>
          <Permitted route="consumer.sharer" action="edit">
            <Button type="link" size="small" onClick={() => setEditing({ template: tpl })}>
              {t('edit')}
            </Button>
          </Permitted>
          <ConfirmAction
            route="consumer.sharer"
            action="delete"
            title={t('template.deleteConfirm')}
            onConfirm={() => deleteTemplate(tpl.id).then(() => mutate())}
          >
            {t('delete')}
          </ConfirmAction>
        </Space>
      ),
    },
  ];
  return (
    <>
      <Permitted route="consumer.sharer" action="add">
        <Button
          type="primary"
          style={{ marginBottom: 12 }}
          onClick={() => setEditing({ template: null })}
          data-testid="template-add"
        >
          {t('template.add')}
        </Button>
      </Permitted>
      <DataList<PermissionTemplate>
        rowKey="id"
        columns={columns}
        data={data ?? []}
        loading={isLoading}
        pagination={false}
      />
      {editing ? (
        <TemplateEditor
          key={editing.template?.id ?? 'new'}
          template={editing.template}
          open
          onClose={() => {
            setEditing(null);
            void mutate();
          }}
        />
      ) : null}
    </>
  );
}

function TransfersTable() {
  const { t } = useTranslation('organization');
  const { message } = App.useApp();
  const { data, loading, pagination, mutate } = usePagedQuery<Transfer, Record<string, never>>(transferPageKey, {});
  const decide = (id: number, decision: 'accept' | 'reject' | 'cancel') =>
    void decideTransfer(id, decision)
      .then(() => {
        void message.success(t('done'));
        void mutate();
      })
      .catch(() => undefined);
  const columns: ListColumn<Transfer>[] = [
    { key: 'device', title: t('device.name'), dataIndex: 'deviceName' },
    { key: 'guid', title: t('device.guid'), dataIndex: 'deviceGuid', responsive: ['md'] },
    { key: 'from', title: t('transfer.from'), dataIndex: 'fromName' },
    { key: 'to', title: t('transfer.to'), dataIndex: 'toName' },
    { key: 'status', title: t('transfer.status'), render: (_, row) => <Tag>{t(`transfer.state.${row.status}`)}</Tag> },
    { key: 'time', title: t('log.time'), render: (_, row) => formatTime(row.gmtCreate), responsive: ['lg'] },
    {
      key: 'actions',
      title: t('actions'),
      render: (_, row) =>
        row.status !== 'pending' ? null : row.incoming ? (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => decide(row.id, 'accept')} data-testid="transfer-accept">
              {t('transfer.accept')}
            </Button>
            <Button type="link" size="small" danger onClick={() => decide(row.id, 'reject')}>
              {t('transfer.reject')}
            </Button>
          </Space>
        ) : (
          <Button type="link" size="small" onClick={() => decide(row.id, 'cancel')}>
            {t('transfer.cancel')}
          </Button>
        ),
    },
  ];
  return <DataList<Transfer> rowKey="id" columns={columns} data={data} loading={loading} pagination={pagination} />;
}

/** /consumer/sharer: shares made and received, permission templates, device transfers. */
export function SharerView() {
  const { t } = useTranslation('organization');
  return (
    <Tabs
      data-testid="consumer-sharer"
      items={[
        { key: 'given', label: t('share.given'), children: <SharesTable received={false} /> },
        { key: 'templates', label: t('template.title'), children: <TemplatesTable /> },
        { key: 'received', label: t('share.received'), children: <SharesTable received /> },
        { key: 'transfers', label: t('transfer.title'), children: <TransfersTable /> },
      ]}
    />
  );
}
