import { Button, Input, Space, Tag } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { insertNotice, noticePageKey, updateNotice, type ManagedNotice } from '@/api/noticeAdmin';
import { formatTime } from '@/lib/format';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { DrawerForm, type DrawerField } from '@/components/ui/DrawerForm';
import { Permitted } from '@/components/ui/Permitted';
import { usePagedQuery } from '@/hooks/usePagedQuery';

const ROUTE = 'notice.list';

/** /notice/list: this site's announcements: create, edit, publish and withdraw (the notice modal shows published ones). */
export function NoticeListView() {
  const { t } = useTranslation('operation');
  const [title, setTitle] = useState('');
  const [editing, setEditing] = useState<{ notice: ManagedNotice | null } | null>(null);
  const { data, loading, pagination, mutate } = usePagedQuery<ManagedNotice, { noticeTitle?: string }>(noticePageKey, {
    noticeTitle: title || undefined,
  });
  const columns: ListColumn<ManagedNotice>[] = [
    { key: 'title', title: t('notice.title'), dataIndex: 'noticeTitle', card: 'title', long: 260 },
    {
      key: 'camp',
      title: t('notice.camp'),
      render: (_, n) => t(`notice.campValue.${n.noticeCamp}`),
      responsive: ['md'],
    },
    {
      key: 'state',
      title: t('field.state'),
      important: true,
      render: (_, n) =>
        n.enabled ? <Tag color="green">{t('notice.published')}</Tag> : <Tag>{t('notice.withdrawn')}</Tag>,
    },
    { key: 'modified', title: t('notice.modified'), important: true, render: (_, n) => formatTime(n.gmtModified) },
    {
      key: 'actions',
      title: t('actions'),
      render: (_, n) => (
        <Space size={0}>
          <Permitted route={ROUTE} action="edit">
            <Button type="link" size="small" onClick={() => setEditing({ notice: n })}>
              {t('edit')}
            </Button>
          </Permitted>
          <ConfirmAction
            route={ROUTE}
            action="edit"
            danger={n.enabled}
            title={n.enabled ? t('notice.withdrawConfirm') : t('notice.publishConfirm')}
            onConfirm={() => updateNotice(n.noticeId, { enabled: !n.enabled }).then(() => mutate())}
          >
            {n.enabled ? t('notice.withdraw') : t('notice.publish')}
          </ConfirmAction>
        </Space>
      ),
    },
  ];
  const required = { required: true, message: t('required') };
  const fields: DrawerField[] = [
    { type: 'input', name: 'noticeTitle', label: t('notice.title'), maxLength: 100, rules: [required] },
    {
      type: 'input',
      name: 'noticeContent',
      label: t('notice.content'),
      textarea: true,
      maxLength: 20000,
      rules: [required],
      extra: t('notice.contentHint'),
    },
    {
      type: 'radio',
      name: 'noticeCamp',
      label: t('notice.camp'),
      options: [0, 1].map((value) => ({ value, label: t(`notice.campValue.${value}`) })),
    },
    { type: 'switch', name: 'enabled', label: t('notice.published') },
  ];
  const notice = editing?.notice ?? null;
  const initial = notice
    ? {
        noticeTitle: notice.noticeTitle,
        noticeContent: notice.noticeContent,
        noticeCamp: notice.noticeCamp,
        enabled: notice.enabled,
      }
    : { noticeCamp: 0, enabled: true };
  return (
    <div data-testid="notice-list">
      <DataList<ManagedNotice>
        rowKey="noticeId"
        testId="notice-table"
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
        filters={
          <Input
            allowClear
            placeholder={t('notice.title')}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            style={{ width: 220, maxWidth: '100%' }}
          />
        }
        actions={
          <Permitted route={ROUTE} action="add">
            <Button type="primary" onClick={() => setEditing({ notice: null })} data-testid="notice-add">
              {t('notice.add')}
            </Button>
          </Permitted>
        }
      />
      <DrawerForm<{ noticeTitle: string; noticeContent: string; noticeCamp: number; enabled: boolean }>
        key={notice?.noticeId ?? 'new'}
        open={Boolean(editing)}
        title={notice ? t('notice.edit') : t('notice.add')}
        fields={fields}
        initialValues={initial}
        onClose={() => setEditing(null)}
        onSubmit={async (values) => {
          const input = { ...values, noticeType: 1, noticePlatform: 1 };
          if (notice) await updateNotice(notice.noticeId, input);
          else await insertNotice(input);
          void mutate();
        }}
      />
    </div>
  );
}
