import { describe, expect, it } from 'vitest';
import { staffKeyTree } from './staffRoleTree';

describe('staff role key tree', () => {
  it('nests each key under the longest key it extends and marks actions', () => {
    const tree = staffKeyTree(['operation.device.sim.add', 'operation', 'operation.device.sim', 'alarm.limit']);
    expect(tree.map((n) => n.key)).toEqual(['operation', 'alarm.limit']);
    const [operation] = tree;
    expect(operation.children[0].key).toBe('operation.device.sim');
    expect(operation.children[0].children).toEqual([{ key: 'operation.device.sim.add', action: 'add', children: [] }]);
    expect(tree[1].action).toBeNull();
  });
});
