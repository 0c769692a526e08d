import { Button, Input, Space, Tag } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { closeCustomPage, customPagePageKey, deleteCustomPage, type CustomPage } from '@/api/customization';
import { formatTime } from '@/lib/format';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { useSession } from '@/lib/SessionContext';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { Permitted } from '@/components/ui/Permitted';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { hasPermission } from '@/routes/permissions';
import { CustomPageForm } from './CustomPageForm';
import { SiteSealDialog } from './SiteSealDialog';

const ROUTE = 'customized.list';

/**
 * /customized/list: the operator's branded sites (every field of business-domain section 3); a
 * reseller admin sees only their own platform and edits its branding (the api enforces both).
 */
export function CustomizedListView() {
  const { t } = useTranslation('customization');
  const { granted } = useSession();
  const operator = hasPermission(granted, `${ROUTE}.add`);
  const [keyword, setKeyword] = useState('');
  const [editing, setEditing] = useState<{ page: CustomPage | null } | null>(null);
  const [sealing, setSealing] = useState<CustomPage | null>(null);
  const { data, loading, pagination, mutate } = usePagedQuery<CustomPage, { keyword?: string }>(customPagePageKey, {
    keyword: keyword || undefined,
  });
  const columns: ListColumn<CustomPage>[] = [
    { key: 'name', title: t('field.enterpriseName'), dataIndex: 'enterpriseName', card: 'title', long: 150 },
    { key: 'title', title: t('field.title'), dataIndex: 'title', desktopOnly: true, card: false },
    {
      key: 'domain',
      title: t('field.topDomain'),
      important: true,
      render: (_, p) => <span data-testid={`domain-${p.slug}`}>{p.domains.join(', ')}</span>,
    },
    {
      key: 'colour',
      title: t('field.themeAndStyle'),
      // The colour and, under it, the style template: one column, so the state and modified time fit at 1440 px.
      render: (_, p) => (
        <>
          <Space size={4}>
            <span
              style={{ display: 'inline-block', width: 14, height: 14, borderRadius: 3, background: p.themeColor }}
            />
            {p.themeColor}
          </Space>
          <div title={t('field.styleModel')}>{p.styleModel}</div>
        </>
      ),
    },
    {
      key: 'independent',
      title: t('field.independent'),
      render: (_, p) => (p.independent ? <Tag color="blue">{t('yes')}</Tag> : <Tag>{t('no')}</Tag>),
      desktopOnly: true,
    },
    { key: 'admin', title: t('field.admin'), render: (_, p) => p.adminUserName ?? '-', desktopOnly: true },
    {
      key: 'state',
      title: t('field.state'),
      render: (_, p) =>
        p.closedTime ? <Tag data-testid={`closed-${p.slug}`}>{t('closed')}</Tag> : <Tag color="green">{t('open')}</Tag>,
    },
    {
      key: 'modified',
      title: t('field.gmtModified'),
      render: (_, p) => formatTime(p.gmtModified),
      desktopOnly: true,
      card: false,
    },
    {
      key: 'actions',
      title: t('actions'),
      render: (_, p) => (
        <Space size={0}>
          <Permitted route={ROUTE} action="edit">
            <Button type="link" size="small" onClick={() => setEditing({ page: p })} data-testid={`edit-${p.slug}`}>
              {t('edit')}
            </Button>
          </Permitted>
          <Permitted route={ROUTE} action="edit">
            <Button type="link" size="small" onClick={() => setSealing(p)} data-testid={`seal-${p.slug}`}>
              {t('seal.action')}
            </Button>
          </Permitted>
          <ConfirmAction
            route={ROUTE}
            action="edit"
            danger={!p.closedTime}
            testId={`close-${p.slug}`}
            title={t(p.closedTime ? 'openConfirm' : 'closeConfirm', { name: p.enterpriseName })}
            onConfirm={() => closeCustomPage(p.id, !p.closedTime).then(() => mutate())}
          >
            {t(p.closedTime ? 'open' : 'close')}
          </ConfirmAction>
          <ConfirmAction
            route={ROUTE}
            action="delete"
            title={t('deleteConfirm', { name: p.enterpriseName })}
            onConfirm={() => deleteCustomPage(p.id).then(() => mutate())}
          >
            {t('delete')}
          </ConfirmAction>
        </Space>
      ),
    },
  ];
  return (
    <div data-testid="customized-list">
      <DataList<CustomPage>
        rowKey="id"
        testId="customized-table"
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
        filters={
          <Input
            allowClear
            placeholder={t('keyword')}
            value={keyword}
            onChange={(e) => setKeyword(e.target.value)}
            style={{ width: 240, maxWidth: '100%' }}
          />
        }
        actions={
          <Permitted route={ROUTE} action="add">
            <Button type="primary" onClick={() => setEditing({ page: null })} data-testid="custom-page-add">
              {t('add')}
            </Button>
          </Permitted>
        }
      />
      <SiteSealDialog page={sealing} onClose={() => setSealing(null)} />
      <CustomPageForm
        open={Boolean(editing)}
        page={editing?.page ?? null}
        full={operator}
        onClose={() => setEditing(null)}
        onSaved={() => void mutate()}
      />
    </div>
  );
}
