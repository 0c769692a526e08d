import dayjs, { type Dayjs } from 'dayjs';
import type { ExportFile, Receiver, ScheduledReportInput } from '@/api/report';
import type { StorageKind } from '@/api/storage';

/** The api refuses ranges longer than this (one year, leap day included). */
export const MAX_EXPORT_DAYS = 366;
/** Spec 5: scheduled report name max 20. */
export const REPORT_NAME_MAX = 20;
export const QUICK_RANGES = ['day', 'week', 'month', 'quarter'] as const;
/** While a row is generating the download centre asks again this often. */
export const GENERATING_REFRESH_MS = 2000;

export function quickRange(key: (typeof QUICK_RANGES)[number]): [Dayjs, Dayjs] {
  const end = dayjs().startOf('minute');
  const days = { day: 1, week: 7, month: 30, quarter: 90 }[key];
  return [end.subtract(days, 'day'), end];
}

/** 1536 -> "1.5 KB"; null -> "-". */
export function formatSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '-';
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

export function anyGenerating(rows: ExportFile[] | undefined): boolean {
  return (rows ?? []).some((row) => row.status === 'generating');
}

/** Spec 5: a receiver phone or email may appear once. Returns the index of the first repeat, or -1. */
export function firstDuplicateReceiver(receivers: Receiver[]): number {
  const phones = new Set<string>();
  const emails = new Set<string>();
  for (const [index, receiver] of receivers.entries()) {
    const phone = (receiver.phone ?? '').replace(/[\s-]/g, '');
    const email = (receiver.email ?? '').trim().toLowerCase();
    if ((phone && phones.has(phone)) || (email && emails.has(email))) return index;
    if (phone) phones.add(phone);
    if (email) emails.add(email);
  }
  return -1;
}

/** The report type whose schedule names a storage instead of devices (api: the storage report kind). */
export const STORAGE_REPORT = 'storage';
/** The storage kinds a storage report can cover, in the picker's order. */
export const STORAGE_KINDS: StorageKind[] = ['storage', 'freezer', 'virtual'];

/** What a scheduled report of this type names: a storage (storage report) or devices (the others). */
export function reportTarget(reportType: string | undefined): 'storage' | 'devices' {
  return reportType === STORAGE_REPORT ? 'storage' : 'devices';
}

/** The subject fields of a scheduled report's body: only the one its type names is sent. */
export function reportSubject(
  reportType: string,
  deviceIds: number[] | undefined,
  storageId: number | null | undefined,
): Pick<ScheduledReportInput, 'deviceIds' | 'storageId'> {
  return reportTarget(reportType) === 'storage'
    ? { deviceIds: [], storageId: storageId ?? null }
    : { deviceIds: deviceIds ?? [], storageId: null };
}

export interface StorageChoice {
  id: number;
  storageName: string;
}

/** The storage picker's options, grouped by kind (empty kinds left out). */
export function storageOptions(
  groups: { kind: StorageKind; label: string; storages: StorageChoice[] | undefined }[],
): { label: string; options: { value: number; label: string }[] }[] {
  return groups
    .filter((group) => group.storages?.length)
    .map((group) => ({
      label: group.label,
      options: (group.storages ?? []).map((storage) => ({ value: storage.id, label: storage.storageName })),
    }));
}
