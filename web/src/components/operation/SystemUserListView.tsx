import { App, Button, Input, Select, Space, Tag } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import {
  resetPasswordBySys,
  sysAddUser,
  sysDeleteUser,
  sysModifyUser,
  systemUserListKey,
  unlockUser,
  userTypeUpgrade,
  type SystemUser,
} from '@/api/operation';
import { formatTime } from '@/lib/format';
import { COMPANY_MAX, COMPANY_MIN, companyRules, passwordRules, REAL_NAME_MAX, userNameRules } from '@/lib/formRules';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { useSession } from '@/lib/SessionContext';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { DrawerForm, type DrawerField } from '@/components/ui/DrawerForm';
import { Permitted } from '@/components/ui/Permitted';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { hasPermission } from '@/routes/permissions';

const ROUTE = 'operation.system.consumer';
type Editing = { kind: 'add' } | { kind: 'edit' | 'upgrade'; user: SystemUser };

/** /operation/consumer/list: the accounts platform staff run (every platform for the operator). */
export function SystemUserListView() {
  const { t } = useTranslation('operation');
  // The account rules of business spec 5 (user name, password, company), with their messages.
  const { t: ta } = useTranslation('account');
  const { granted } = useSession();
  const { message } = App.useApp();
  // Only the operator creates platforms; a reseller admin holds customized.list.query/edit only.
  const operator = hasPermission(granted, 'customized.list.add');
  const [filters, setFilters] = useState<{ keyword?: string; accountType?: string; staffRole?: string }>({});
  const [editing, setEditing] = useState<Editing | null>(null);
  const { data, loading, pagination, mutate } = usePagedQuery<SystemUser, typeof filters>(systemUserListKey, filters);
  const staffOptions = [
    { value: 'platform_admin', label: t('staffRole.platform_admin') },
    ...(operator ? [{ value: 'operator', label: t('staffRole.operator') }] : []),
  ];
  const typeOptions = [
    { value: 'enterprise', label: t('accountType.enterprise') },
    { value: 'personal', label: t('accountType.personal') },
  ];
  const columns: ListColumn<SystemUser>[] = [
    { key: 'userName', title: t('field.userName'), dataIndex: 'userName', card: 'title' },
    { key: 'realName', title: t('field.realName'), render: (_, u) => u.realName ?? '-', desktopOnly: true },
    {
      key: 'contact',
      title: t('field.contact'),
      render: (_, u) => [u.phone, u.email].filter(Boolean).join(' / ') || '-',
      long: 200,
    },
    { key: 'type', title: t('field.accountType'), render: (_, u) => t(`accountType.${u.accountType}`) },
    {
      key: 'staff',
      title: t('field.staffRole'),
      render: (_, u) => (u.staffRole ? <Tag color="orange">{t(`staffRole.${u.staffRole}`)}</Tag> : '-'),
    },
    {
      key: 'locked',
      title: t('field.state'),
      important: true,
      render: (_, u) => (u.locked ? <Tag color="red">{t('locked')}</Tag> : <Tag color="green">{t('normal')}</Tag>),
    },
    {
      key: 'created',
      title: t('field.gmtCreate'),
      render: (_, u) => formatTime(u.gmtCreate),
      desktopOnly: true,
      card: false,
    },
    {
      key: 'actions',
      title: t('actions'),
      render: (_, u) => (
        <Space size={0} wrap style={{ maxWidth: 260 }}>
          <Permitted route={ROUTE} action="edit">
            <Button type="link" size="small" onClick={() => setEditing({ kind: 'edit', user: u })}>
              {t('edit')}
            </Button>
          </Permitted>
          {/* Staff never choose the new password: the user is told to set their own (21 CFR 11.200). */}
          <ConfirmAction
            route={ROUTE}
            action="edit"
            danger={false}
            title={t('resetConfirm', { name: u.userName })}
            onConfirm={() =>
              resetPasswordBySys(u.id).then((sent) => void message.info(t('resetSent', { sentTo: sent.sentTo })))
            }
            testId={`system-user-reset-${u.id}`}
          >
            {t('resetPassword')}
          </ConfirmAction>
          {u.accountType === 'personal' ? (
            <Permitted route={ROUTE} action="edit">
              <Button type="link" size="small" onClick={() => setEditing({ kind: 'upgrade', user: u })}>
                {t('upgrade')}
              </Button>
            </Permitted>
          ) : null}
          {u.locked ? (
            <ConfirmAction
              route={ROUTE}
              action="edit"
              danger={false}
              title={t('unlockConfirm')}
              onConfirm={() => unlockUser(u.id).then(() => mutate())}
            >
              {t('unlock')}
            </ConfirmAction>
          ) : null}
          <ConfirmAction
            route={ROUTE}
            action="delete"
            title={t('deleteConfirm', { name: u.userName })}
            onConfirm={() => sysDeleteUser(u.id).then(() => mutate())}
          >
            {t('delete')}
          </ConfirmAction>
        </Space>
      ),
    },
  ];
  const user = editing && editing.kind !== 'add' ? editing.user : null;
  const company: DrawerField = {
    type: 'input',
    name: 'companyName',
    label: t('field.companyName'),
    maxLength: COMPANY_MAX,
    minLength: COMPANY_MIN,
  };
  const realName: DrawerField = {
    type: 'input',
    name: 'realName',
    label: t('field.realName'),
    maxLength: REAL_NAME_MAX,
  };
  const fields: DrawerField[] =
    editing?.kind === 'add'
      ? [
          { type: 'input', name: 'userName', label: t('field.userName'), maxLength: 50, rules: userNameRules(ta) },
          { type: 'password', name: 'password', label: t('field.password'), rules: passwordRules(ta) },
          realName,
          { type: 'input', name: 'phone', label: t('field.phone'), maxLength: 20 },
          { type: 'input', name: 'email', label: t('field.email'), maxLength: 254 },
          company,
          { type: 'radio', name: 'accountType', label: t('field.accountType'), options: typeOptions },
          ...(operator
            ? [
                {
                  type: 'select' as const,
                  name: 'staffRole',
                  label: t('field.staffRole'),
                  options: staffOptions,
                  allowClear: true,
                },
              ]
            : []),
        ]
      : editing?.kind === 'upgrade'
        ? [
            {
              type: 'input',
              name: 'companyName',
              label: t('field.companyName'),
              maxLength: COMPANY_MAX,
              rules: companyRules(ta),
            },
          ]
        : [
            realName,
            { type: 'input', name: 'phone', label: t('field.phone'), maxLength: 20 },
            { type: 'input', name: 'email', label: t('field.email'), maxLength: 254 },
            company,
            ...(operator
              ? [
                  {
                    type: 'select' as const,
                    name: 'staffRole',
                    label: t('field.staffRole'),
                    options: staffOptions,
                    allowClear: true,
                  },
                ]
              : []),
          ];
  const clean = (values: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === '' || v === undefined ? null : v]));
  const submit = async (values: Record<string, unknown>) => {
    if (!editing) return;
    if (editing.kind === 'add')
      await sysAddUser(Object.fromEntries(Object.entries(clean(values)).filter(([, v]) => v !== null)));
    else if (editing.kind === 'upgrade') await userTypeUpgrade(editing.user.id, String(values.companyName));
    else await sysModifyUser({ id: editing.user.id, ...clean(values) });
    void mutate();
  };
  const initial =
    editing?.kind === 'add'
      ? { accountType: 'enterprise' }
      : user
        ? {
            realName: user.realName ?? '',
            phone: user.phone ?? '',
            email: user.email ?? '',
            companyName: user.companyName ?? '',
            staffRole: user.staffRole ?? undefined,
          }
        : undefined;
  return (
    <div data-testid="system-user-list">
      <DataList<SystemUser>
        rowKey="id"
        testId="system-user-table"
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
        filters={
          <>
            <Input
              allowClear
              placeholder={t('keyword')}
              onChange={(e) => setFilters((f) => ({ ...f, keyword: e.target.value || undefined }))}
              style={{ width: 220, maxWidth: '100%' }}
            />
            <Select
              allowClear
              placeholder={t('field.accountType')}
              options={typeOptions}
              onChange={(v?: string) => setFilters((f) => ({ ...f, accountType: v }))}
              style={{ width: 150 }}
            />
            <Select
              allowClear
              placeholder={t('field.staffRole')}
              options={staffOptions}
              onChange={(v?: string) => setFilters((f) => ({ ...f, staffRole: v }))}
              style={{ width: 150 }}
            />
          </>
        }
        actions={
          <Permitted route={ROUTE} action="add">
            <Button type="primary" onClick={() => setEditing({ kind: 'add' })} data-testid="system-user-add">
              {t('add')}
            </Button>
          </Permitted>
        }
      />
      <DrawerForm<Record<string, unknown>>
        key={editing ? `${editing.kind}-${user?.id ?? 'new'}` : 'closed'}
        open={Boolean(editing)}
        title={editing ? t(`title.${editing.kind}`) : ''}
        fields={fields}
        initialValues={initial}
        onClose={() => setEditing(null)}
        onSubmit={submit}
      />
    </div>
  );
}
