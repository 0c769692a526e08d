import type { PermissionNode } from '@/api/organization';

/**
 * The keys a role stores from the tree's checked nodes: a fully checked node as its own key (it
 * grants its whole subtree), a partly checked one through its checked children.
 */
export function storedKeys(checked: string[], tree: PermissionNode[]): string[] {
  const chosen = new Set(checked);
  const out: string[] = [];
  const visit = (nodes: PermissionNode[]) => {
    for (const node of nodes) {
      if (chosen.has(node.key)) out.push(node.key);
      else visit(node.children);
    }
  };
  visit(tree);
  return out;
}

/** The tree nodes shown checked for stored keys: a stored key checks its whole subtree. */
export function checkedKeys(stored: string[], tree: PermissionNode[]): string[] {
  const set = new Set(stored);
  const out: string[] = [];
  const visit = (nodes: PermissionNode[], inherited: boolean) => {
    for (const node of nodes) {
      const on = inherited || set.has(node.key);
      if (on) out.push(node.key);
      visit(node.children, on);
    }
  };
  visit(tree, false);
  return out;
}
