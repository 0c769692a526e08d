import type { OrganizationNode } from '@/api/organization';
import { useOrganizationTree, useRoles } from '@/hooks/resources';

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
  return nodes.map((node) => ({
    title: node.name,
    value: node.id,
    key: node.id,
    children: treeOptions(node.children),
  }));
}

export function useOrganizations() {
  return useOrganizationTree();
}
