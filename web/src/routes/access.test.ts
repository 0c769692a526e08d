import { describe, expect, it } from 'vitest';
import { getStyleModel } from '@/theme/styleModels';
import { buildAccess, filterMenu, routeAccess, type MenuItem } from './access';
import { findRoute } from './match';
import { grantedSet } from './permissions';
import { CONSOLE_ROUTES } from './routes';

// The grants of api/account/permissions.py for the demo accounts.
const HOLDER = [
  'home',
  'message.list',
  'device.list',
  'storage.list',
  'freezer.list',
  'waybill.list',
  'waybill.geofence',
  'asset.list',
  'project.list',
  'organization.list',
  'organization.list.userList',
  'fda',
  'consumer',
  'consumer.info',
  'consumer.list',
  'consumer.role',
  'consumer.recharge',
  'consumer.download',
  'consumer.sharer',
  'operation.log',
];
const ADMIN = [
  ...HOLDER,
  'customized.list',
  'notice.list',
  'operation',
  'operation.system',
  'operation.system.consumer',
  'operation.system.role',
];

const keys = (items: MenuItem[]): string[] => items.flatMap((item) => [item.key, ...keys(item.children ?? [])]);
const route = (name: string) => findRoute(name)!;

describe('buildAccess on the default style model', () => {
  const access = buildAccess('default', grantedSet(HOLDER), '/home');

  it('has every console route', () => {
    for (const item of CONSOLE_ROUTES) expect(access.available.has(item.name), item.name).toBe(true);
  });

  it('filters the menu by permission and drops empty groups', () => {
    const menu = keys(access.menu);
    expect(menu).toContain('home');
    expect(menu).toContain('waybill'); // a group kept for its granted children
    expect(menu).toContain('waybill.geofence');
    expect(menu).not.toContain('operation');
    expect(menu).not.toContain('operation.product.type');
    expect(menu).not.toContain('customized.list');
  });

  it('permits routes by their key and refuses the others', () => {
    expect(routeAccess(access, route('device.detail'))).toBe('allowed');
    expect(routeAccess(access, route('consumer.list'))).toBe('allowed');
    expect(routeAccess(access, route('operation.product.type'))).toBe('forbidden');
    expect(routeAccess(access, route('notice.list'))).toBe('forbidden');
    expect(access.landing).toBe('/home');
  });

  it('opens the operator routes the api grants (every route and action key is sent)', () => {
    const operator = buildAccess(
      'default',
      grantedSet([
        ...ADMIN,
        'operation.device',
        'operation.product',
        'operation.product.type',
        'operation.product.series',
        'operation.order',
        'operation.order.list',
      ]),
    );
    expect(routeAccess(operator, route('operation.product.type'))).toBe('allowed');
    expect(routeAccess(operator, route('operation.product.series'))).toBe('allowed');
    expect(keys(operator.menu)).toEqual(
      expect.arrayContaining(['operation', 'operation.product', 'operation.product.type', 'operation.order.list']),
    );
    expect(keys(operator.menu)).not.toContain('dataInterface.index');
  });

  it('lands on the home page of the profile when permitted, else on the model landing', () => {
    expect(buildAccess('default', grantedSet(HOLDER), '/device/list').landing).toBe('/device/list');
    expect(buildAccess('default', grantedSet(HOLDER), '/operation/device/type').landing).toBe('/home');
    expect(buildAccess('default', grantedSet(['device.list'])).landing).toBe('/device/list'); // first permitted entry
  });
});

describe('buildAccess on the junjia style model (spec 6: the limited menu)', () => {
  const access = buildAccess('junjia', grantedSet(ADMIN), '/home');

  it('shows exactly the junjia menu', () => {
    expect(keys(access.menu)).toEqual([
      'message.list',
      'device.list',
      'storage.list',
      'freezer.list',
      'organization.list',
      'organization.list.userList',
      'consumer',
      'consumer.info',
      'consumer.recharge',
      'consumer.download',
    ]);
    expect(keys(getStyleModel('junjia').menu)).toEqual(keys(access.menu));
  });

  it('lands on /device/list and has no home or other areas', () => {
    expect(access.landing).toBe('/device/list');
    expect(routeAccess(access, route('home'))).toBe('missing');
    expect(routeAccess(access, route('asset.list'))).toBe('missing');
    expect(routeAccess(access, route('customized.list'))).toBe('missing');
    expect(routeAccess(access, route('consumer.list'))).toBe('missing');
    expect(routeAccess(access, route('device.detail'))).toBe('allowed');
    expect(routeAccess(access, route('storage.detail'))).toBe('allowed');
  });

  it('still filters by permission', () => {
    const limited = buildAccess('junjia', grantedSet(['device.list', 'consumer.info']));
    expect(keys(limited.menu)).toEqual(['device.list', 'consumer', 'consumer.info']);
    expect(routeAccess(limited, route('message.list'))).toBe('forbidden');
  });

  it('unknown style models get the default menu', () => {
    expect(buildAccess('nope', grantedSet(HOLDER)).styleModel).toBe('default');
  });
});

describe('filterMenu', () => {
  it('shows a page kept under another key by its route permission (stability profiles: waybill.list)', () => {
    const waybills = buildAccess('default', grantedSet(['waybill.list']));
    expect(keys(waybills.menu)).toEqual(['waybill', 'waybill.list', 'waybill.profiles']);
    expect(routeAccess(waybills, route('waybill.profiles'))).toBe('allowed');
    const fences = buildAccess('default', grantedSet(['waybill.geofence']));
    expect(keys(fences.menu)).not.toContain('waybill.profiles');
    expect(routeAccess(fences, route('waybill.profiles'))).toBe('forbidden');
  });

  it('keeps a group only with children', () => {
    expect(filterMenu([{ key: 'g', children: [{ key: 'g.a', path: '/a' }] }], grantedSet(['x']))).toEqual([]);
  });
});

describe('external sites in the menu (issue 26: plc and calibration serve are platform settings)', () => {
  it('hides an entry whose address is unset and shows it, by the home permission, once set', () => {
    expect(keys(buildAccess('default', grantedSet(HOLDER)).menu)).not.toEqual(expect.arrayContaining(['plc']));
    const withPlc = keys(
      buildAccess('default', grantedSet(HOLDER), null, { plc: 'https://scada.example.com', calibrationServe: '' }).menu,
    );
    expect(withPlc).toContain('plc');
    expect(withPlc).not.toContain('calibration.serve');
    const both = keys(
      filterMenu(getStyleModel('default').menu, grantedSet(['home']), {
        plc: 'https://a.example',
        calibrationServe: 'https://b.example',
      }),
    );
    expect(both).toEqual(expect.arrayContaining(['plc', 'calibration.serve']));
    expect(
      keys(filterMenu(getStyleModel('default').menu, grantedSet(['device.list']), { plc: 'https://a.example' })),
    ).not.toContain('plc');
  });
});
