import { App, Button, Input, Select, Space, Tag } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import {
  accountByEmail,
  accountByPhone,
  deleteInOrganization,
  invite,
  organizationAddUser,
  queryAccountByUEP,
  queryUserByConditionKey,
  updateAccountOrganizationRel,
  updateRoleInOrganization,
  type Member,
  type MemberQuery,
} from '@/api/organization';
import { DrawerForm, type DrawerField } from '@/components/ui/DrawerForm';
import { Permitted } from '@/components/ui/Permitted';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { treeOptions, useOrganizations, useRoleOptions } from './common';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { DataList, type ListColumn } from '@/components/ui/DataList';

type Dialog = { kind: 'invite' } | { kind: 'add' } | { kind: 'edit'; member: Member } | null;

interface InviteValues extends Record<string, unknown> {
  organizationId: number;
  contact: 'email' | 'phone';
  email?: string;
  phone?: string;
  roleId?: number;
  inviterName: string;
}

/**
 * Members (sub-users) of the account's organisations, or of one organisation: search by name,
 * phone, email and role; invite by phone or email; add a registered account; move, change role,
 * remove. Used by /consumer/list and /organization/list.
 */
export function MembersPanel({ organizationId }: { organizationId?: number }) {
  const { t } = useTranslation('organization');
  const roles = useRoleOptions();
  const { data: tree } = useOrganizations();
  const organizations = treeOptions(tree ?? []);
  const [filters, setFilters] = useState<MemberQuery>({});
  const [dialog, setDialog] = useState<Dialog>(null);
  const { message } = App.useApp();
  const inviteInitial = useMemo(() => ({ contact: 'email' as const, organizationId }), [organizationId]);
  const addInitial = useMemo(() => ({ organizationId }), [organizationId]);
  const query = { ...filters, organizationId: organizationId ?? filters.organizationId };
  const { data, loading, pagination, mutate } = usePagedQuery<Member, MemberQuery>(queryUserByConditionKey, query);
  const reload = () => void mutate();

  const columns: ListColumn<Member>[] = [
    { key: 'userName', title: t('member.userName'), dataIndex: 'userName' },
    { key: 'realName', title: t('member.realName'), dataIndex: 'realName', responsive: ['md'] },
    { key: 'phone', title: t('member.phone'), dataIndex: 'phone', responsive: ['lg'] },
    { key: 'email', title: t('member.email'), dataIndex: 'email', responsive: ['lg'], long: 170 },
    { key: 'organization', title: t('member.organization'), dataIndex: 'organizationName' },
    {
      key: 'role',
      title: t('member.role'),
      // A long role name wraps inside its tag rather than pushing the column under the actions.
      render: (_, member) => (member.roleName ? <Tag style={{ whiteSpace: 'normal' }}>{member.roleName}</Tag> : '-'),
    },
    {
      key: 'actions',
      title: t('actions'),
      render: (_, member) => (
        <Space size={0}>
          <Permitted route="consumer.list" action="edit">
            <Button
              type="link"
              size="small"
              onClick={() => setDialog({ kind: 'edit', member })}
              data-testid="member-edit"
            >
              {t('edit')}
            </Button>
          </Permitted>
          <ConfirmAction
            route="consumer.list"
            action="delete"
            title={t('member.removeConfirm', { name: member.userName })}
            onConfirm={() => deleteInOrganization(member.organizationId, member.accountId).then(reload)}
          >
            {t('member.remove')}
          </ConfirmAction>
        </Space>
      ),
    },
  ];

  const organizationField: DrawerField = {
    type: 'treeSelect',
    name: 'organizationId',
    label: t('member.organization'),
    treeData: organizations,
    rules: [{ required: true, message: t('required') }],
  };
  const inviteFields: DrawerField[] = [
    organizationField,
    {
      type: 'radio',
      name: 'contact',
      label: t('member.inviteBy'),
      options: [
        { value: 'email', label: t('member.email') },
        { value: 'phone', label: t('member.phone') },
      ],
    },
    {
      type: 'input',
      name: 'email',
      label: t('member.email'),
      hidden: (v) => v.contact !== 'email',
      rules: [{ required: true, type: 'email', message: t('member.emailInvalid') }],
    },
    {
      type: 'input',
      name: 'phone',
      label: t('member.phone'),
      hidden: (v) => v.contact !== 'phone',
      rules: [{ required: true, message: t('required') }],
    },
    { type: 'select', name: 'roleId', label: t('member.role'), options: roles, allowClear: true },
    {
      type: 'input',
      name: 'inviterName',
      label: t('member.inviterName'),
      maxLength: 20,
      rules: [{ required: true, min: 2, max: 20, message: t('length', { min: 2, max: 20 }) }],
    },
  ];
  const addFields: DrawerField[] = [
    organizationField,
    {
      type: 'input',
      name: 'keyword',
      label: t('member.lookup'),
      extra: t('member.lookupHint'),
      rules: [{ required: true, message: t('required') }],
    },
    { type: 'select', name: 'roleId', label: t('member.role'), options: roles, allowClear: true },
  ];
  const editing = dialog?.kind === 'edit' ? dialog.member : null;
  const editInitial = useMemo(
    () =>
      editing
        ? { userName: editing.userName, newOrganizationId: editing.organizationId, roleId: editing.roleId ?? undefined }
        : {},
    [editing],
  );
  const editFields: DrawerField[] = [
    { type: 'text', name: 'userName', label: t('member.userName') },
    { ...organizationField, name: 'newOrganizationId' },
    { type: 'select', name: 'roleId', label: t('member.role'), options: roles },
  ];

  return (
    <div data-testid="members-panel">
      <Space wrap style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Space wrap>
          <Input
            allowClear
            placeholder={t('member.userName')}
            onChange={(e) => setFilters((f) => ({ ...f, userName: e.target.value || undefined }))}
            style={{ width: 160 }}
          />
          <Input
            allowClear
            placeholder={t('member.phone')}
            onChange={(e) => setFilters((f) => ({ ...f, phone: e.target.value || undefined }))}
            style={{ width: 140 }}
          />
          <Input
            allowClear
            placeholder={t('member.email')}
            onChange={(e) => setFilters((f) => ({ ...f, email: e.target.value || undefined }))}
            style={{ width: 180 }}
          />
          <Select
            allowClear
            placeholder={t('member.role')}
            options={roles}
            onChange={(roleId?: number) => setFilters((f) => ({ ...f, roleId }))}
            style={{ width: 140 }}
          />
        </Space>
        <Space wrap>
          <Permitted route="consumer.list" action="add">
            <Button onClick={() => setDialog({ kind: 'add' })} data-testid="member-add">
              {t('member.add')}
            </Button>
          </Permitted>
          <Permitted route="consumer.list" action="add">
            <Button type="primary" onClick={() => setDialog({ kind: 'invite' })} data-testid="member-invite">
              {t('member.invite')}
            </Button>
          </Permitted>
        </Space>
      </Space>
      <DataList<Member>
        rowKey={(m) => `${m.organizationId}-${m.accountId}`}
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
      />
      <DrawerForm<InviteValues>
        open={dialog?.kind === 'invite'}
        title={t('member.invite')}
        fields={inviteFields}
        initialValues={inviteInitial}
        onClose={() => setDialog(null)}
        onSubmit={async (v) => {
          const answer = await invite({
            organizationId: v.organizationId,
            roleId: v.roleId ?? null,
            inviterName: v.inviterName,
            ...(v.contact === 'email' ? { email: v.email } : { phone: v.phone }),
          });
          reload();
          return answer;
        }}
      />
      <DrawerForm<{ organizationId: number; keyword: string; roleId?: number }>
        open={dialog?.kind === 'add'}
        title={t('member.add')}
        fields={addFields}
        initialValues={addInitial}
        onClose={() => setDialog(null)}
        onSubmit={async (v) => {
          const keyword = v.keyword.trim();
          const found = keyword.includes('@')
            ? await accountByEmail(keyword)
            : /^\+?\d{6,}$/.test(keyword)
              ? await accountByPhone(keyword)
              : await queryAccountByUEP(keyword);
          if (!found?.ticket) {
            void message.error(t(found ? 'member.notYourself' : 'member.notFound'));
            throw new Error(t(found ? 'member.notYourself' : 'member.notFound'));
          }
          await organizationAddUser(v.organizationId, found.ticket, v.roleId ?? null);
          reload();
        }}
      />
      <DrawerForm<{ userName: string; newOrganizationId: number; roleId: number }>
        key={editing ? `${editing.organizationId}-${editing.accountId}` : 'none'}
        open={Boolean(editing)}
        title={t('member.edit')}
        fields={editFields}
        initialValues={editInitial}
        onClose={() => setDialog(null)}
        onSubmit={async (v) => {
          if (!editing) return;
          if (v.newOrganizationId !== editing.organizationId)
            await updateAccountOrganizationRel(
              editing.accountId,
              editing.organizationId,
              v.newOrganizationId,
              v.roleId ?? null,
            );
          else if (v.roleId) await updateRoleInOrganization(editing.organizationId, editing.accountId, v.roleId);
          reload();
        }}
      />
    </div>
  );
}
