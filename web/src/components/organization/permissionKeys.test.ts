import { describe, expect, it } from 'vitest';
import type { PermissionNode } from '@/api/organization';
import { checkedKeys, storedKeys } from './permissionKeys';

const leaf = (key: string, action: string | null = null): PermissionNode => ({ key, action, children: [] });
const TREE: PermissionNode[] = [
  leaf('home'),
  {
    key: 'device.list',
    action: null,
    children: [leaf('device.list.query', 'query'), leaf('device.list.edit', 'edit')],
  },
  {
    key: 'consumer',
    action: null,
    children: [
      leaf('consumer.info'),
      { key: 'consumer.role', action: null, children: [leaf('consumer.role.add', 'add')] },
    ],
  },
];

describe('role keys from the permission tree', () => {
  it('stores a fully checked node as its own key and a partly checked one by its children', () => {
    expect(storedKeys(['home', 'device.list', 'device.list.query', 'device.list.edit', 'consumer.info'], TREE)).toEqual(
      ['home', 'device.list', 'consumer.info'],
    );
    expect(storedKeys(['device.list.query'], TREE)).toEqual(['device.list.query']);
  });

  it('checks the whole subtree of a stored key', () => {
    expect(checkedKeys(['consumer'], TREE)).toEqual([
      'consumer',
      'consumer.info',
      'consumer.role',
      'consumer.role.add',
    ]);
    expect(checkedKeys(['device.list.query'], TREE)).toEqual(['device.list.query']);
  });

  it('round-trips', () => {
    for (const stored of [['home'], ['device.list'], ['device.list.edit', 'consumer.role']]) {
      expect(storedKeys(checkedKeys(stored, TREE), TREE)).toEqual(stored);
    }
  });
});
