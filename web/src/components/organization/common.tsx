import { App, Button, Popconfirm } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import type { ReactNode } from 'react';
import type { OrganizationNode } from '@/api/organization';
import { Permitted } from '@/components/ui/Permitted';
import { useDeviceChoices, useOrganizationTree, useRoles } from '@/hooks/resources';

/** Options of the account's devices (for projects, assets, organisations, sharing). */
export function useDeviceOptions(enabled = true) {
  const { data } = useDeviceChoices(enabled);
  return (data?.list ?? []).map((device) => ({ value: device.id, label: `${device.deviceName} (${device.deviceGuid})`, shared: device.shareFlag, waybill: device.waybillSupport }));
}

export function useRoleOptions() {
  const { data } = useRoles();
  return (data ?? []).map((role) => ({ value: role.id, label: role.roleName }));
}

export interface TreeOption {
  title: string;
  value: number;
  key: number;
  children: TreeOption[];
}

export function treeOptions(nodes: OrganizationNode[]): TreeOption[] {
  return nodes.map((node) => ({ title: node.name, value: node.id, key: node.id, children: treeOptions(node.children) }));
}

export function useOrganizations() {
  return useOrganizationTree();
}

/** A delete (or other risky) link guarded by its permission and a confirmation. */
export function ConfirmAction({
  route,
  action,
  title,
  onConfirm,
  children,
  danger = true,
  testId,
}: {
  route: string;
  action: string;
  title: ReactNode;
  onConfirm: () => Promise<unknown>;
  children: ReactNode;
  danger?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation('organization');
  const { message } = App.useApp();
  return (
    <Permitted route={route} action={action}>
      <Popconfirm
        title={title}
        okText={t('ok')}
        cancelText={t('cancel')}
        onConfirm={() =>
          onConfirm()
            .then(() => void message.success(t('done')))
            .catch(() => undefined)
        }
      >
        <Button type="link" size="small" danger={danger} data-testid={testId}>
          {children}
        </Button>
      </Popconfirm>
    </Permitted>
  );
}
