/**
 * One hook per resource (design 7): each reads through useRead with the api module's request key,
 * so a request asked for by several pages is cached once (the device options of the message
 * filter, the report form, projects, assets, organisations and storage probes are one entry).
 */
import type { SWRConfiguration } from 'swr';
import {
  devicePageKey,
  deviceDetailKey,
  statusCountKey,
  type Device,
  type DeviceDetail,
  type StatusCount,
} from '@/api/device';
import {
  organizationTreeKey,
  permissionTreeKey,
  rolesByOrganizationTypeKey,
  templateCodesKey,
  templateListKey,
  type OrganizationNode,
  type PermissionNode,
  type PermissionTemplate,
  type Role,
  type TemplateCodes,
} from '@/api/organization';
import { fencePageKey, type Fence } from '@/api/waybill';
import { storagePageKey, type Storage, type StorageKind } from '@/api/storage';
import type { Page } from '@/components/ui/table';
import { useRead } from './useRead';

/** How many of the account's devices a picker offers. */
export const DEVICE_OPTIONS_SIZE = 200;
/** How many of the account's electric fences a picker (and the waybill map) offers. */
export const FENCE_OPTIONS_SIZE = 200;

export function useDevicePage(
  query: Parameters<typeof devicePageKey>[0] | null,
  config?: SWRConfiguration<Page<Device>>,
) {
  return useRead<Page<Device>>(query ? devicePageKey(query) : null, config);
}

/** The account's devices for pickers (projects, assets, organisations, sharing, filters, reports). */
export function useDeviceChoices(enabled = true) {
  return useDevicePage(enabled ? { start: 1, pageSize: DEVICE_OPTIONS_SIZE } : null);
}

export const STORAGE_OPTIONS_SIZE = 200;

/** The storages of one kind the account sees, for pickers (a scheduled storage report's storage). */
export function useStorageChoices(kind: StorageKind, enabled = true) {
  return useRead<Page<Storage>>(enabled ? storagePageKey({ kind, start: 1, pageSize: STORAGE_OPTIONS_SIZE }) : null);
}

/** The account's electric fences for the waybill form's pickers and the waybill map. */
export function useFenceChoices() {
  return useRead<Page<Fence>>(fencePageKey({ start: 1, pageSize: FENCE_OPTIONS_SIZE }));
}

export function useDeviceDetail(deviceId: number | null) {
  return useRead<DeviceDetail>(deviceId ? deviceDetailKey(deviceId) : null);
}

export function useStatusCount(config?: SWRConfiguration<StatusCount>) {
  return useRead<StatusCount>(statusCountKey(), config);
}

export function useOrganizationTree() {
  return useRead<OrganizationNode[]>(organizationTreeKey());
}

export function useRoles(enabled = true) {
  return useRead<Role[]>(enabled ? rolesByOrganizationTypeKey('enterprise') : null);
}

export function usePermissionTree() {
  return useRead<PermissionNode[]>(permissionTreeKey());
}

export function useTemplates(enabled = true) {
  return useRead<PermissionTemplate[]>(enabled ? templateListKey() : null);
}

export function useTemplateCodes(enabled = true) {
  return useRead<TemplateCodes>(enabled ? templateCodesKey() : null);
}

/** Options of the account's devices (for projects, assets, organisations, sharing). */
export function useDeviceOptions(enabled = true) {
  const { data } = useDeviceChoices(enabled);
  return (data?.list ?? []).map((device) => ({
    value: device.id,
    label: `${device.deviceName} (${device.deviceGuid})`,
    shared: device.shareFlag,
    waybill: device.waybillSupport,
  }));
}
