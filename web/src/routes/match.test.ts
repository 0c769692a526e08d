import { describe, expect, it } from 'vitest';
import { isPublicPath, loginPathFor, matchPattern, matchRoute, pathOnly, routePath } from './match';
import { CONSOLE_ROUTES, PUBLIC_ROUTES } from './routes';

describe('the route table (spec 2.1, 2.2)', () => {
  it.each([
    '/home',
    '/home/organization',
    '/message/list',
    '/device/list',
    '/device/detail/42',
    '/storage/detail/3',
    '/freezer/detail/3',
    '/cloudControl/storage/detail/9',
    '/waybill/list',
    '/waybill/geofence',
    '/asset/list',
    '/asset/detail/1',
    '/project/list',
    '/organization/list',
    '/fda',
    '/consumer/info',
    '/consumer/list',
    '/consumer/list/3',
    '/consumer/role',
    '/consumer/recharge',
    '/consumer/download',
    '/operation/log',
    '/consumer/sharer',
    '/operation/system/manage',
    '/operation/device/list',
    '/operation/device/guid/content',
    '/operation/device/guid/record',
    '/operation/sim/list',
    '/operation/device/alarmlist',
    '/operation/dataApi',
    '/operation/device/type',
    '/operation/device/param',
    '/operation/device/param/unit',
    '/operation/device/series',
    '/operation/device/alarm',
    '/operation/device/warning',
    '/operation/device/message/temlate',
    '/operation/device/version',
    '/service/package',
    '/operation/recharge',
    '/operation/device/offlinebuy',
    '/operation/order',
    '/operation/consumer/list',
    '/operation/consumer/role',
    '/customized/list',
    '/service/scheduledBackup',
    '/notice/list',
    '/dataInterface/index',
  ])('%s is a console route with a permission key', (path) => {
    const match = matchRoute(path);
    expect(match?.route.kind).toBe('console');
    expect(match?.route.permission).toBeTruthy();
  });

  it.each([
    '/user/login',
    '/user/recover',
    '/user/register',
    '/user/login-result',
    '/user/bind-phone',
    '/user/bind-email',
    '/quick/query',
    '/mobileQuick/waybill',
    '/mobileQuick/waybill/detail',
    '/pcQuick/waybill',
    '/help/center',
    '/mobile/help/list',
    '/mobile/help/center',
    '/receipt',
    '/mobilePay/pay',
    '/mobilePay/success',
    '/mobilePay/paypal/callback',
    '/mobilePay/paypal/cancel',
    '/404',
    '/calibration/login',
    '/calibration/admin/login',
    '/mobile/calibration/login',
  ])('%s is public', (path) => {
    expect(isPublicPath(path)).toBe(true);
    expect(isPublicPath(`${path}?a=1`)).toBe(true);
  });

  it('ignores query, hash and a trailing slash; unknown paths match nothing', () => {
    expect(matchRoute('/device/detail/7?tab=map#x')).toMatchObject({
      route: { name: 'device.detail' },
      params: { deviceId: '7' },
    });
    expect(matchRoute('/device/list/')?.route.name).toBe('device.list');
    expect(matchRoute('/nowhere')).toBeNull();
    expect(matchRoute('/device/detail')).toBeNull();
    expect(matchRoute('/device/detail/1/2')).toBeNull();
    expect(matchRoute('/consumer/list/abc')).toBeNull(); // optional numeric start only
    expect(matchRoute('/consumer/list/12')?.params).toEqual({ start: '12' });
  });

  it('has unique names and paths', () => {
    const all = [...PUBLIC_ROUTES, ...CONSOLE_ROUTES];
    expect(new Set(all.map((route) => route.name)).size).toBe(all.length);
    expect(new Set(all.map((route) => route.path)).size).toBe(all.length);
  });

  it('matches patterns', () => {
    expect(matchPattern('/a/:id', '/a/x%20y')).toEqual({ id: 'x y' });
    expect(matchPattern('/a/:id', '/a/%E0%A4%A')).toBeNull();
    expect(matchPattern('/c/:rest*', '/c')).toEqual({ rest: '' });
    expect(matchPattern('/c/:rest*', '/c/x/y')).toEqual({ rest: 'x/y' });
    expect(pathOnly('/')).toBe('/');
    expect(pathOnly('?x')).toBe('/');
    expect(routePath(matchRoute('/consumer/list')!.route)).toBe('/consumer/list');
    expect(routePath(matchRoute('/device/detail/1')!.route, { deviceId: 'a/b' })).toBe('/device/detail/a%2Fb');
  });
});

describe('loginPathFor (spec 2.1: the sign-in path by prefix)', () => {
  it.each([
    ['/mobile/calibration/order/3', '/mobile/calibration/login'],
    ['/mobile/calibration', '/mobile/calibration/login'],
    ['/calibration/admin/orders', '/calibration/admin/login'],
    ['/calibration/orders?x=1', '/calibration/login'],
    ['/calibrationx', '/user/login'],
    ['/device/list', '/user/login'],
    ['/operation/device/type', '/user/login'],
    ['/mobile/help/list', '/user/login'],
  ])('%s -> %s', (path, expected) => {
    expect(loginPathFor(path)).toBe(expected);
  });

  it('sends calibration areas to calibration sign-in pages', () => {
    expect(matchRoute('/calibration/orders')?.route.kind).toBe('calibration');
    expect(matchRoute('/mobile/calibration/home')?.route.kind).toBe('calibration');
    expect(matchRoute('/calibration/login')?.route.kind).toBe('public');
  });
});
