import { describe, expect, it } from 'vitest';
import { actionState, devicePermissionState, grantedSet, hasPermission } from './permissions';

describe('hasPermission (spec 6)', () => {
  const granted = grantedSet(['home', 'device.list', 'operation.device', 'consumer']);

  it.each([
    ['home', true],
    ['device.list', true],
    ['device.list.add', false], // a route key does not grant its actions
    ['operation.device.list', false], // nor a group key its routes
    ['operation.device', true],
    ['operation', true], // a key passes with a granted sub-key (opens the group or route, not its siblings)
    ['operation.product.type', false],
    ['device', true],
    ['devices.list', false],
    ['consumer.role', false], // a group key does not grant its routes
    ['storage.list', false],
  ])('%s -> %s', (key, expected) => {
    expect(hasPermission(granted, key)).toBe(expected);
  });

  it('opens a route for one granted action without granting the other actions (roles, spec 6)', () => {
    const member = grantedSet(['device.list.query', 'consumer.info']);
    expect(hasPermission(member, 'device.list')).toBe(true);
    expect(hasPermission(member, 'device.list.query')).toBe(true);
    expect(hasPermission(member, 'device.list.edit')).toBe(false);
    expect(hasPermission(member, 'consumer.list')).toBe(false);
  });

  it('passes a route without a key and fails everything on an empty list', () => {
    expect(hasPermission(grantedSet([]), undefined)).toBe(true);
    expect(hasPermission(grantedSet(null), 'home')).toBe(false);
  });
});

describe('actionState (spec 6: hide, or disable with show)', () => {
  const granted = grantedSet(['device.list.add', 'storage.list.delete']);
  it('is enabled when route.action is granted', () => {
    expect(actionState(granted, 'device.list', 'add')).toBe('enabled');
    expect(actionState(granted, 'storage.list', 'delete')).toBe('enabled');
  });
  it('hides, or disables with show, when it is missing', () => {
    expect(actionState(granted, 'device.list', 'delete')).toBe('hidden');
    expect(actionState(granted, 'device.list', 'delete', true)).toBe('disabled');
  });
});

describe('devicePermissionState (spec 6)', () => {
  const perms = [
    { permissionCode: 'alarm', setStatus: 1, viewStatus: 1 },
    { permissionCode: 'limits', setStatus: 0, viewStatus: 1 },
    { permissionCode: 'probe', setStatus: 0, viewStatus: 0 },
    { permissionCode: 'notify', setStatus: -1, viewStatus: 1 },
    { permissionCode: 'map', setStatus: 1, viewStatus: 0 },
  ];
  it.each([
    ['alarm', 'enabled'],
    ['limits', 'disabled'], // seen, not set
    ['probe', 'hidden'],
    ['notify', 'hidden'], // setStatus -1
    ['map', 'hidden'], // viewStatus 0
    ['absent', 'hidden'],
  ])('%s -> %s', (code, expected) => {
    expect(devicePermissionState(perms, code)).toBe(expected);
  });
  it('enables everything on an own device (no permission list)', () => {
    expect(devicePermissionState(undefined, 'limits')).toBe('enabled');
  });
});
