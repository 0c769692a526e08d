/**
 * The route table of spec section 2: every path the console answers, its name (translated for the
 * page title and the tab), who may open it and the menu entry it belongs to. Pages of areas not
 * built yet are served by pages/[...path].tsx from this table; a dedicated page file (pages/device/
 * list.tsx ...) takes over a path when its area is built, with the same entry here.
 */

/**
 * public: no sign-in (spec 2.1); console: signed in, inside the shell, permission-checked;
 * calibration: the separate calibration service (signed in, own layout and title).
 */
export type RouteKind = 'public' | 'console' | 'calibration';

export interface RouteDef {
  /** Route name: translation key (menu namespace for console routes, common `routes.` otherwise). */
  name: string;
  /** Path pattern: `:param` is one segment, a trailing `:param?` is optional; see matchRoute. */
  path: string;
  kind: RouteKind;
  /** Permission key checked against accountInfo.permissionRoutes (console routes). */
  permission?: string;
  /** The menu entry the route belongs to (highlighted in the sidebar, style-model membership). */
  menu?: string;
  /** Constraints of path parameters. */
  params?: Record<string, RegExp>;
  /** Opens an external site in a new window instead of a page (spec 2.1: plc, calibration serve). */
  external?: ExternalSite;
}

/** The external sites whose addresses are platform settings (issue 26). */
export type ExternalSite = 'plc' | 'calibrationServe';

const consoleRoute = (name: string, path: string, permission = name, extra: Partial<RouteDef> = {}): RouteDef => ({
  name,
  path,
  kind: 'console',
  permission,
  menu: extra.menu ?? permission,
  ...extra,
});

/** Console routes of spec section 2.2 (permission key = menu key of themes/<model>/theme.json). */
export const CONSOLE_ROUTES: RouteDef[] = [
  consoleRoute('home', '/home'),
  consoleRoute('home.organization', '/home/organization', 'home'),
  consoleRoute('message.list', '/message/list'),
  consoleRoute('alarm.oncall', '/alarm/oncall'),
  consoleRoute('device.list', '/device/list'),
  consoleRoute('device.detail', '/device/detail/:deviceId', 'device.list'),
  consoleRoute('storage.list', '/storage/list'),
  consoleRoute('storage.detail', '/storage/detail/:id', 'storage.list'),
  consoleRoute('freezer.list', '/freezer/list'),
  consoleRoute('freezer.detail', '/freezer/detail/:id', 'freezer.list'),
  consoleRoute('cloudControl.storage.detail', '/cloudControl/storage/detail/:id', 'storage.list'),
  consoleRoute('waybill.list', '/waybill/list'),
  consoleRoute('waybill.geofence', '/waybill/geofence'),
  // Stability profiles (issue 48): kept with the shipments' keys, as the api checks them.
  consoleRoute('waybill.profiles', '/waybill/profiles', 'waybill.list', { menu: 'waybill.profiles' }),
  consoleRoute('asset.list', '/asset/list'),
  consoleRoute('asset.detail', '/asset/detail/:id', 'asset.list'),
  consoleRoute('project.list', '/project/list'),
  consoleRoute('organization.list', '/organization/list'),
  consoleRoute('fda', '/fda'),
  consoleRoute('consumer.info', '/consumer/info'),
  consoleRoute('consumer.list', '/consumer/list/:start?', 'consumer.list', { params: { start: /^\d+$/ } }),
  consoleRoute('consumer.role', '/consumer/role'),
  consoleRoute('consumer.recharge', '/consumer/recharge'),
  consoleRoute('consumer.download', '/consumer/download'),
  consoleRoute('operation.log', '/operation/log'),
  consoleRoute('consumer.sharer', '/consumer/sharer'),
  // Operations
  consoleRoute('operation.device.systemManage', '/operation/system/manage'),
  consoleRoute('operation.device.list', '/operation/device/list'),
  consoleRoute('operation.device.guid', '/operation/device/guid/content'),
  consoleRoute('operation.device.guidRecord', '/operation/device/guid/record'),
  consoleRoute('operation.device.sim', '/operation/sim/list'),
  consoleRoute('operation.device.alarmlist', '/operation/device/alarmlist'),
  consoleRoute('operation.device.dataApi', '/operation/dataApi'),
  // Product management
  consoleRoute('operation.product.type', '/operation/device/type'),
  consoleRoute('operation.product.param', '/operation/device/param'),
  consoleRoute('operation.product.unit', '/operation/device/param/unit'),
  consoleRoute('operation.product.series', '/operation/device/series', 'operation.product.series', {
    menu: 'operation.product',
  }),
  consoleRoute('operation.product.alarm', '/operation/device/alarm'),
  consoleRoute('operation.product.warning', '/operation/device/warning'),
  consoleRoute('operation.product.template', '/operation/device/message/temlate'),
  consoleRoute('operation.product.version', '/operation/device/version'),
  // Orders
  consoleRoute('operation.order.package', '/service/package'),
  consoleRoute('operation.order.recharge', '/operation/recharge'),
  consoleRoute('operation.order.offlinebuy', '/operation/device/offlinebuy'),
  consoleRoute('operation.order.list', '/operation/order'),
  // System users and roles
  consoleRoute('operation.system.consumer', '/operation/consumer/list'),
  consoleRoute('operation.system.role', '/operation/consumer/role'),
  // Customization, backup, announcements, data interface
  consoleRoute('customized.list', '/customized/list'),
  consoleRoute('service.center.scheduledBackup', '/service/scheduledBackup'),
  consoleRoute('notice.list', '/notice/list'),
  consoleRoute('dataInterface.index', '/dataInterface/index'),
  // External sites opened in a new window (spec 2.1); their addresses are platform settings, and the
  // menu hides an entry whose address is unset. Anyone who may open home may open them.
  consoleRoute('plc', '/plc', 'home', { menu: 'plc', external: 'plc' }),
  consoleRoute('calibration.serve', '/service/calibration', 'home', {
    menu: 'calibration.serve',
    external: 'calibrationServe',
  }),
];

const publicRoute = (name: string, path: string): RouteDef => ({ name, path, kind: 'public' });

/** Public paths of spec section 2.1 (no sign-in). */
export const PUBLIC_ROUTES: RouteDef[] = [
  publicRoute('login', '/user/login'),
  publicRoute('recover', '/user/recover'),
  publicRoute('register', '/user/register'),
  publicRoute('loginResult', '/user/login-result'),
  publicRoute('bindPhone', '/user/bind-phone'),
  publicRoute('bindEmail', '/user/bind-email'),
  publicRoute('quick.query', '/quick/query'),
  publicRoute('mobileQuick.query', '/mobileQuick/query'),
  publicRoute('mobileQuick.waybill.list', '/mobileQuick/waybill'),
  publicRoute('mobileQuick.waybill.detail', '/mobileQuick/waybill/detail'),
  publicRoute('pcQuick.waybill', '/pcQuick/waybill'),
  publicRoute('share.waybill', '/share/waybill/:token'),
  publicRoute('fda.verify', '/fda/verify'),
  publicRoute('alarm.ack', '/alarm/ack'),
  publicRoute('help.center', '/help/center'),
  publicRoute('mobile.help.list', '/mobile/help/list'),
  publicRoute('mobile.help.center', '/mobile/help/center'),
  publicRoute('receipt', '/receipt'),
  publicRoute('mobilePay.pay', '/mobilePay/pay'),
  publicRoute('mobilePay.success', '/mobilePay/success'),
  publicRoute('mobilePay.paypal.callback', '/mobilePay/paypal/callback'),
  publicRoute('mobilePay.paypal.cancel', '/mobilePay/paypal/cancel'),
  publicRoute('notFound', '/404'),
  publicRoute('serverError', '/500'),
  // The calibration service's sign-in pages and its public pages (spec 2.1: the calibration.* family
  // home, form, form.example, quickly, preview; calibration.mobile.* quickly, device.example, apply,
  // apply.success, preview), plus the certificate verification page its QR codes open.
  publicRoute('calibration.login', '/calibration/login'),
  publicRoute('calibration.admin.login', '/calibration/admin/login'),
  publicRoute('calibration.mobile.login', '/mobile/calibration/login'),
  publicRoute('calibration.home', '/calibration/home'),
  publicRoute('calibration.form', '/calibration/form'),
  publicRoute('calibration.form.example', '/calibration/form/example'),
  publicRoute('calibration.quickly', '/calibration/quickly'),
  publicRoute('calibration.preview', '/calibration/preview'),
  publicRoute('calibration.verify', '/calibration/verify'),
  publicRoute('calibration.mobile.quickly', '/mobile/calibration/quickly'),
  publicRoute('calibration.mobile.device.example', '/mobile/calibration/device/example'),
  publicRoute('calibration.mobile.apply', '/mobile/calibration/apply'),
  publicRoute('calibration.mobile.apply.success', '/mobile/calibration/apply/success'),
  publicRoute('calibration.mobile.preview', '/mobile/calibration/preview'),
];

/**
 * The calibration service area (its own layouts, components/calibration): every other path under
 * these prefixes needs a calibration sign-in, the login path chosen by loginPathFor.
 */
export const CALIBRATION_ROUTES: RouteDef[] = [
  { name: 'calibration.mobile', path: '/mobile/calibration/:rest*', kind: 'calibration' },
  { name: 'calibration', path: '/calibration/:rest*', kind: 'calibration' },
];

export const ROUTES: RouteDef[] = [...PUBLIC_ROUTES, ...CONSOLE_ROUTES, ...CALIBRATION_ROUTES];
