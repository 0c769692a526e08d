import { Button, Input, Space, Tag, Tree } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import { usePermissionTree } from '@/hooks/resources';
import { deleteRole, rolePageKey, saveRole, type PermissionNode, type Role } from '@/api/organization';
import { DrawerForm, type DrawerField } from '@/components/ui/DrawerForm';
import { Permitted } from '@/components/ui/Permitted';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { checkedKeys, storedKeys } from './permissionKeys';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { useMenuLabel } from '@/components/shell/menuLabel';

interface KeyNode {
  key: string;
  title: string;
  children: KeyNode[];
}

function PermissionPicker({
  value,
  onChange,
  tree,
}: {
  value?: string[];
  onChange?: (keys: string[]) => void;
  tree: PermissionNode[];
}) {
  // Permission keys contain dots: their labels are flat keys of the menu namespace (never nested).
  const t = useMenuLabel();
  const { t: to } = useTranslation('organization');
  const label = (node: PermissionNode) => (node.action ? to(`action.${node.action}`) : t(node.key));
  const data = useMemo(() => {
    const convert = (nodes: PermissionNode[]): KeyNode[] =>
      nodes.map((node) => ({ key: node.key, title: label(node), children: convert(node.children) }));
    return convert(tree);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tree, t, to]);
  const expanded = useMemo(() => checkedKeys(value ?? [], tree), [value, tree]);
  return (
    <Tree
      checkable
      defaultExpandAll
      treeData={data}
      checkedKeys={expanded}
      onCheck={(checked) =>
        onChange?.(storedKeys((Array.isArray(checked) ? checked : checked.checked).map(String), tree))
      }
      data-testid="permission-tree"
    />
  );
}

/** /consumer/role: roles with the permission-key tree of spec 6; add, edit, delete. */
export function RoleView() {
  const { t } = useTranslation('organization');
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<{ role: Role | null } | null>(null);
  const { data: tree } = usePermissionTree();
  const { data, loading, pagination, mutate } = usePagedQuery<Role, { roleName?: string }>(rolePageKey, {
    roleName: name || undefined,
  });
  const columns: ListColumn<Role>[] = [
    {
      key: 'name',
      title: t('role.name'),
      render: (_, role) => (
        <Space>
          {role.roleName}
          {role.preset ? <Tag>{t('role.preset')}</Tag> : null}
        </Space>
      ),
    },
    { key: 'description', title: t('role.description'), dataIndex: 'description', responsive: ['md'] },
    { key: 'count', title: t('role.keys'), render: (_, role) => role.permissions.length },
    {
      key: 'actions',
      title: t('actions'),
      render: (_, role) => (
        <Space size={0}>
          <Permitted route="consumer.role" action="edit">
            <Button type="link" size="small" onClick={() => setEditing({ role })}>
              {t('edit')}
            </Button>
          </Permitted>
          <ConfirmAction
            route="consumer.role"
            action="delete"
            title={t('role.deleteConfirm')}
            onConfirm={() => deleteRole(role.id).then(() => mutate())}
          >
            {t('delete')}
          </ConfirmAction>
        </Space>
      ),
    },
  ];
  const fields: DrawerField[] = [
    {
      type: 'input',
      name: 'roleName',
      label: t('role.name'),
      maxLength: 20,
      rules: [{ required: true, max: 20, message: t('max', { max: 20 }) }],
    },
    { type: 'input', name: 'description', label: t('role.description'), maxLength: 200, textarea: true },
    { type: 'slot', name: 'permissions', label: t('role.keys'), render: () => <PermissionPicker tree={tree ?? []} /> },
  ];
  const role = editing?.role ?? null;
  const initial = useMemo(
    () => ({
      roleName: role?.roleName ?? '',
      description: role?.description ?? '',
      permissions: role?.permissions ?? [],
    }),
    [role],
  );
  return (
    <div data-testid="consumer-role">
      <Space wrap style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Input
          allowClear
          placeholder={t('role.name')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          style={{ width: 200 }}
        />
        <Permitted route="consumer.role" action="add">
          <Button type="primary" onClick={() => setEditing({ role: null })} data-testid="role-add">
            {t('role.add')}
          </Button>
        </Permitted>
      </Space>
      <DataList<Role> rowKey="id" columns={columns} data={data} loading={loading} pagination={pagination} />
      <DrawerForm<{ roleName: string; description: string; permissions: string[] }>
        key={role?.id ?? 'new'}
        open={Boolean(editing)}
        title={role ? t('role.edit') : t('role.add')}
        fields={fields}
        initialValues={initial}
        width={560}
        onClose={() => setEditing(null)}
        onSubmit={async (v) => {
          await saveRole({
            id: role?.id,
            roleName: v.roleName,
            description: v.description || null,
            permissions: v.permissions ?? [],
          });
          void mutate();
        }}
      />
    </div>
  );
}
