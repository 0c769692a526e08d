/**
 * A staff role's permission keys as a tree: each key under the longest other key of the set it
 * extends ("operation.device.sim.add" under "operation.device.sim"); a key whose last part is an
 * action ("add") is labelled as the action, every other key by its menu label.
 */
export interface StaffKeyNode {
  key: string;
  action: string | null;
  children: StaffKeyNode[];
}

export const ACTIONS = new Set([
  'query',
  'add',
  'edit',
  'delete',
  'enable',
  'disable',
  'export',
  'share',
  'transfer',
  'start',
  'stop',
  'dispose',
  'buy',
  'invoice',
]);

export function staffKeyTree(keys: readonly string[]): StaffKeyNode[] {
  const sorted = [...new Set(keys)].sort((a, b) => a.split('.').length - b.split('.').length || a.localeCompare(b));
  const nodes = new Map<string, StaffKeyNode>();
  const roots: StaffKeyNode[] = [];
  for (const key of sorted) {
    const parts = key.split('.');
    let parent: StaffKeyNode | undefined;
    for (let end = parts.length - 1; end > 0 && !parent; end -= 1) parent = nodes.get(parts.slice(0, end).join('.'));
    const last = parts[parts.length - 1];
    const node: StaffKeyNode = { key, action: parent && ACTIONS.has(last) ? last : null, children: [] };
    nodes.set(key, node);
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}
