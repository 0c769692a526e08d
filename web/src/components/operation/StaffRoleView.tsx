import { Card, Empty, Space, Spin, Tag, Tree, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useMemo } from 'react';
import { staffRoleListKey, type StaffRole } from '@/api/operation';
import { useMenuLabel } from '@/components/shell/menuLabel';
import { useRead } from '@/hooks/useRead';
import { staffKeyTree, type StaffKeyNode } from './staffRoleTree';

interface LabelledNode {
  key: string;
  title: string;
  children: LabelledNode[];
}

/** One staff role: its name, how many users hold it, and what it grants (read only: staff roles are fixed). */
function StaffRoleCard({ role }: { role: StaffRole }) {
  const { t } = useTranslation('operation');
  const { t: to } = useTranslation('organization');
  const menuLabel = useMenuLabel();
  const tree = useMemo(() => {
    const label = (node: StaffKeyNode): LabelledNode => ({
      key: node.key,
      title: node.action ? to(`action.${node.action}`) : menuLabel(node.key),
      children: node.children.map(label),
    });
    return staffKeyTree(role.permissions).map(label);
  }, [role.permissions, menuLabel, to]);
  return (
    <Card
      data-testid={`staff-role-${role.staffRole}`}
      title={t(`staffRole.${role.staffRole}`)}
      extra={<Tag>{t('roles.users', { count: role.users })}</Tag>}
    >
      <Typography.Paragraph type="secondary">{t('roles.fixed')}</Typography.Paragraph>
      <Tree treeData={tree} selectable={false} defaultExpandedKeys={tree.map((node) => node.key)} />
    </Card>
  );
}

/** /operation/consumer/role: the staff roles, how many users hold each, and the keys each grants. */
export function StaffRoleView() {
  const { data, isLoading } = useRead<StaffRole[]>(staffRoleListKey());
  if (isLoading) return <Spin />;
  if (!data?.length) return <Empty />;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="staff-role-list">
      {data.map((role) => (
        <StaffRoleCard key={role.staffRole} role={role} />
      ))}
    </Space>
  );
}
