import { cloneElement, isValidElement, type ReactElement, type ReactNode } from 'react';
import { useSession } from '@/lib/SessionContext';
import { actionState, devicePermissionState, type Action, type DevicePermission } from '@/routes/permissions';

function apply(state: 'enabled' | 'disabled' | 'hidden', children: ReactNode): ReactNode {
  if (state === 'hidden') return null;
  if (state === 'disabled' && isValidElement(children)) {
    return cloneElement(children as ReactElement<{ disabled?: boolean }>, { disabled: true });
  }
  return children;
}

/**
 * An action control of a route (spec 6): removed when `route.action` is not granted, or disabled
 * (grey, no clicks) when `show` is set. <Permitted route="device.list" action="add"><Button/></Permitted>
 */
export function Permitted({
  route,
  action,
  show = false,
  children,
}: {
  route: string;
  action: Action;
  show?: boolean;
  children: ReactNode;
}) {
  const { granted } = useSession();
  return <>{apply(actionState(granted, route, action, show), children)}</>;
}

/** An element governed by a shared device's permissions (spec 6: setStatus / viewStatus). */
export function DevicePermitted({
  permissions,
  code,
  children,
}: {
  permissions: readonly DevicePermission[] | null | undefined;
  code: string;
  children: ReactNode;
}) {
  return <>{apply(devicePermissionState(permissions, code), children)}</>;
}
