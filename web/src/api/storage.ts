/** Storage calls (all under /storage): cold storages, freezers, virtual storages and cloud control. */
import type { ProcessState, PushSetting, PushSettingSave } from './alarm';
import type { ChartPoint, TemperatureUnit } from './device';
import type { ExportFile } from './report';
import { del, post, put, type RequestOptions } from './client';
import { readKey } from './read';

const BASE = '/storage';

export type StorageKind = 'storage' | 'freezer' | 'virtual';
export type StorageStatus = 'online' | 'offline' | 'alarm' | 'empty';
export type Zone = 'door' | 'middle' | 'evaporator' | 'return_air' | 'other';
export type StorageBlock = 'realtime' | 'chart' | 'alarm' | 'push' | 'params' | 'energy' | 'info';
export const ZONES: Zone[] = ['door', 'middle', 'evaporator', 'return_air', 'other'];

/** The api entity of each kind: /storage/{entity}/{action}. */
export const ENTITY: Record<StorageKind, string> = {
  storage: 'ColdStorage',
  freezer: 'Freezer',
  virtual: 'VirtualStorage',
};

export interface Probe {
  id: number;
  deviceId: number;
  deviceName: string | null;
  deviceGuid: string;
  sensor: number;
  zone: Zone;
  probeName: string | null;
  unit: string | null;
  precision: number;
  value: number | null;
  lastDataTime: string | null;
  online: boolean;
  /** The last value of a device that is not live (shown with its time, marked stale). */
  stale: boolean;
  upper: number | null;
  lower: number | null;
  alarm: boolean;
}

export interface Controller {
  deviceId: number;
  deviceGuid: string;
  deviceName: string | null;
  typeName: string;
  typeCode: number;
  online: boolean;
  status: string;
}

export interface Storage {
  id: number;
  kind: StorageKind;
  storageName: string;
  volume: string | null;
  area: string | null;
  compressor: string | null;
  airCooler: string | null;
  electricBox: string | null;
  brand: string | null;
  model: string | null;
  address: string | null;
  lat: number | null;
  lng: number | null;
  images: string[];
  imageUrls: string[];
  timeZone: string;
  remark: string | null;
  mktEnabled: boolean;
  mktWindowHours: number;
  mktLimit: number | null;
  defrostHoldMinutes: number;
  doorHoldMinutes: number;
  controller: Controller | null;
  probes: Probe[];
  status: StorageStatus;
  openAlarms: number;
  mine: boolean;
  writable: boolean;
  blocks: StorageBlock[];
  gmtCreate: string;
}

export interface ProbeInput {
  deviceId: number;
  sensor: number;
  zone: Zone;
  probeName?: string | null;
}

export interface StorageForm {
  storageName: string;
  volume?: string | null;
  area?: string | null;
  compressor?: string | null;
  airCooler?: string | null;
  electricBox?: string | null;
  brand?: string | null;
  model?: string | null;
  address?: string | null;
  lat?: number | null;
  lng?: number | null;
  images?: string[];
  timeZone?: string;
  controllerGuid?: string | null;
  probes?: ProbeInput[];
  remark?: string | null;
  mktEnabled?: boolean;
  mktWindowHours?: number;
  mktLimit?: number | null;
  /** Minutes a defrost / an open door holds the affected probes' limit alarms (0: off; omitted: kept). */
  defrostHoldMinutes?: number;
  doorHoldMinutes?: number;
}

export interface StorageCounts {
  all: number;
  online: number;
  offline: number;
  alarm: number;
  empty: number;
}

export interface Overview {
  storageId: number;
  status: StorageStatus;
  probes: Probe[];
  setpoint: number | null;
  compressor: boolean | null;
  fan: boolean | null;
  defrost: boolean | null;
  door: boolean | null;
  light: boolean | null;
  controllerOnline: boolean | null;
  lastDataTime: string | null;
  alarm: boolean;
  mkt: number | null;
}

export interface StorageSeries {
  key: string;
  deviceId: number;
  sensor: number;
  probeName: string | null;
  zone: Zone;
  unit: string | null;
  upper: number | null;
  lower: number | null;
  points: ChartPoint[];
}

export interface StorageChart {
  bucketSeconds: number;
  unit: TemperatureUnit;
  series: StorageSeries[];
}

export interface StorageAlarm {
  id: string;
  source: 'device' | 'storage';
  deviceId: number | null;
  deviceName: string | null;
  sensor: number | null;
  kind: string;
  status: string;
  openTime: string | null;
  closeTime: string | null;
  limitValue: number | null;
  peakValue: number | null;
  lastValue: number | null;
  /** The probe's name and zone in this storage, and its unit (device alarms of a placed probe). */
  probeName: string | null;
  zone: string | null;
  unit: string | null;
  closeReason: 'device_disabled' | 'device_scrapped' | 'asset_disabled' | 'waybill_completed' | null;
  /** The owner's message of a device alarm: processed through it, as the device's alarm list does. */
  messageId: number | null;
  processState: ProcessState | null;
  result: string | null;
}

export interface StorageParam {
  paramKey: string;
  paramName: string;
  paramType: string;
  unit: string | null;
  /** `onoff`: a state channel (1 running, 0 stopped). */
  unitCode: string | null;
  readWrite: string;
  min: number | null;
  max: number | null;
  value: number | string | null;
  commandStatus: string | null;
}

export interface StorageParams {
  deviceId: number | null;
  params: StorageParam[];
}

export interface TopUp {
  devices: {
    deviceId: number;
    deviceName: string | null;
    deviceGuid: string;
    serviceExpireTime: string | null;
    smsCount: number;
    voiceCount: number;
  }[];
  rechargePath: string;
}

/** A storage's alarm push setting: its controller's (or first device's); a save goes to every device,
 * each keeping what the save omits. */
export type StoragePush = Omit<PushSetting, 'deviceId'> & { storageId: number };

export type ControlAction = 'setpoint' | 'compressor' | 'defrost' | 'light';

export interface StorageCommand {
  id: number;
  commandId: number;
  action: ControlAction;
  value: number | null;
  status: 'pending' | 'applied' | 'failed';
  error: string | null;
  operator: string | null;
  gmtCreate: string;
  ackedAt: string | null;
}

/** Body code of an offline controller: ask, then send again with confirmOffline. */
export const OFFLINE_PROMPT = 3010;

const path = (kind: StorageKind, action: string) => `${BASE}/${ENTITY[kind]}/${action}`;

export const storageCountsKey = (kind: StorageKind, storageName?: string) =>
  readKey(path(kind, 'statusCount'), storageName ? { storageName } : null);

export const storageDetailKey = (kind: StorageKind, id: number) => readKey(path(kind, `detail/${id}`));

export function saveStorage(
  kind: StorageKind,
  form: StorageForm,
  id: number | null,
  options?: RequestOptions,
): Promise<Storage> {
  return id === null
    ? post(path(kind, 'insert'), form, options)
    : put(path(kind, 'update'), { ...form, storageId: id }, options);
}

export function deleteStorage(kind: StorageKind, id: number): Promise<unknown> {
  return del(path(kind, `delete/${id}`));
}

export const storageOverviewKey = (kind: StorageKind, storageId: number) =>
  readKey(path(kind, 'overview'), { storageId });

export const storageChartKey = (
  kind: StorageKind,
  query: { storageId: number; start: string; end: string; unit: TemperatureUnit },
) => readKey(path(kind, 'chart'), query);

export const storagePageKey = ({
  kind,
  ...query
}: {
  kind: StorageKind;
  start: number;
  pageSize: number;
  storageName?: string;
  status?: StorageStatus;
}) => readKey(path(kind, 'page'), query, 'post');
export const storageAlarmsKey =
  (kind: StorageKind, storageId: number) => (query: { start: number; pageSize: number }) =>
    readKey(path(kind, 'alarmPage'), { ...query, storageId }, 'post');

export const storagePushKey = (kind: StorageKind, storageId: number) =>
  readKey(path(kind, 'pushSetting/get'), { storageId });

export function saveStoragePush(
  kind: StorageKind,
  body: PushSettingSave & { storageId: number },
): Promise<StoragePush> {
  return post(path(kind, 'pushSetting/save'), body);
}

export const storageParamsKey = (kind: StorageKind, storageId: number) => readKey(path(kind, 'params'), { storageId });

export const storageTopUpKey = (kind: StorageKind, storageId: number) => readKey(path(kind, 'topUp'), { storageId });

export const storageEnergyKey = (kind: StorageKind, storageId: number) => readKey(path(kind, 'energy'), { storageId });

export function uploadStorageImage(file: File): Promise<{ name: string; url: string }> {
  const data = new FormData();
  data.append('file', file);
  return post(`${BASE}/ColdStorage/uploadImage`, data);
}

/** A storage's report (PDF) or its probes' readings (CSV, XLSX) over a window, generated into the download centre. */
export function requestStorageReport(
  kind: StorageKind,
  body: {
    storageId: number;
    startTime: string;
    endTime: string;
    fileType: 'pdf' | 'csv' | 'xlsx';
    unit?: TemperatureUnit;
  },
): Promise<ExportFile> {
  return post(path(kind, 'report'), body);
}

export function sendControl(
  body: { storageId: number; action: ControlAction; value?: number | null; confirmOffline?: boolean },
  options?: RequestOptions,
): Promise<StorageCommand> {
  return post(`${BASE}/CloudControl/send`, body, options);
}

export const controlCommandsKey = (storageId: number) => readKey(`${BASE}/CloudControl/list`, { storageId });
