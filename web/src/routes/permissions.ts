/**
 * Permission checks of spec section 6, the same rule the api enforces (api/access/keys.py): a key
 * passes if "the key, with optional sub-key, is in the granted list": the key itself or a sub-key of
 * it ("device.list.query" opens the route "device.list", not its other actions). A route key does not
 * grant its actions: the api sends every granted action key in permissionRoutes.
 */
export type Granted = ReadonlySet<string>;

export function grantedSet(permissionRoutes: readonly string[] | null | undefined): Granted {
  return new Set(permissionRoutes ?? []);
}

export function hasPermission(granted: Granted, key: string | undefined): boolean {
  if (!key) return true;
  if (granted.has(key)) return true;
  const prefix = `${key}.`;
  for (const item of granted) if (item.startsWith(prefix)) return true;
  return false;
}

/** Generic action names of spec section 6. */
export const ACTIONS = ['add', 'delete', 'edit', 'query', 'get', 'enable', 'disable', 'import', 'export'] as const;
export type Action = (typeof ACTIONS)[number] | (string & {});

/**
 * What an action control does (spec 6): `hidden` when `route.action` is not granted, or `disabled`
 * (grey, no clicks) instead when the control asks to stay shown; `enabled` when granted.
 */
export type ControlState = 'enabled' | 'disabled' | 'hidden';

export function actionState(granted: Granted, route: string, action: Action, show = false): ControlState {
  if (hasPermission(granted, `${route}.${action}`)) return 'enabled';
  return show ? 'disabled' : 'hidden';
}

/** A device permission of a shared device (spec section 3): per parameter or block. */
export interface DevicePermission {
  permissionCode: string;
  /** 1 operable, 0 not operable, -1 not set. */
  setStatus: number;
  /** 1 visible, 0 hidden. */
  viewStatus: number;
}

/**
 * Device-level permission of an element (spec 6): disabled when it may be seen but not set
 * (setStatus 0, viewStatus 1); removed when its code is absent, when setStatus is 0 or -1 (and it
 * is not the seen-but-not-set case) or when viewStatus is 0; enabled otherwise. Without a permission
 * list (own device, not shared) everything is enabled.
 */
export function devicePermissionState(
  permissions: readonly DevicePermission[] | null | undefined,
  code: string,
): ControlState {
  if (!permissions) return 'enabled';
  const item = permissions.find((permission) => permission.permissionCode === code);
  if (!item) return 'hidden';
  if (item.setStatus === 0 && item.viewStatus === 1) return 'disabled';
  if (item.setStatus === 0 || item.setStatus === -1 || item.viewStatus === 0) return 'hidden';
  return 'enabled';
}
