/** Device calls (all under /device): devices, their data, commands, records and service expiry. */
import type { Page } from '@/components/ui/table';
import type { DevicePermission } from '@/routes/permissions';
import { fetchRead, quietReadKey, readKey } from './read';
import { del, post, put, type RequestOptions } from './client';

const BASE = '/device';

export type DeviceStatus =
  'online' | 'offline' | 'alarm' | 'fault' | 'disabled' | 'deactivated' | 'expired' | 'not_enabled';
export type DeviceCategory = 'cold_chain' | 'cold_storage' | 'freezer';
export type ExpiryFilter = 'week' | 'month' | 'expired_this_month';

/** Latest values by sensor (probe id as a string). */
export type SensorValues = Record<string, number | null>;

export interface Device {
  id: number;
  deviceGuid: string;
  deviceName: string;
  typeName: string;
  deviceTypeCode: string;
  category: DeviceCategory;
  timeZone: string;
  remark: string | null;
  status: DeviceStatus;
  useFlag: boolean;
  focus: boolean;
  /** Quick-search flag: the public quick query answers for this device (only its owner changes it). */
  quickSearch: boolean;
  /** Shared with the signed-in account (its permission template applies). */
  shareFlag: boolean;
  waybillSupport: boolean;
  /** Its type takes the same settings sent to many devices at once (batch parameters). */
  batchParam: boolean;
  intervalSeconds: number;
  serviceExpiredDate: string | null;
  dataExpiredDate: string | null;
  lastDataTime: string | null;
  values: SensorValues;
  battery: number | null;
  signal: number | null;
  lat: number | null;
  lng: number | null;
  /** The measured values in probe order: name, unit, precision. */
  sensors: DeviceSensor[];
}

export interface DeviceSensor {
  probeId: number;
  paramName: string;
  unit: string | null;
  unitCode: string | null;
  precision: number;
}

export type ParamType = 'sensor' | 'setting' | 'energy';

export interface DeviceParam {
  paramKey: string;
  paramName: string;
  paramType: ParamType;
  probeId: number | null;
  unit: string | null;
  unitCode: string | null;
  precision: number;
  paramMin: number | null;
  paramMax: number | null;
  readWriteType: 'R' | 'W' | 'RW';
}

export interface DeviceDetail extends Device {
  params: DeviceParam[];
  /** A shared device's permissions (spec 3: permissionCode, setStatus, viewStatus); null: full. */
  permissions: DevicePermission[] | null;
  sensorSettings: Record<string, unknown>;
}

export interface StatusCount {
  all: number;
  online: number;
  offline: number;
  alarm: number;
  disabled: number;
  deactivated: number;
  expired: number;
  notEnabled: number;
  organization: number;
}

export interface DevicePageQuery {
  start: number;
  pageSize: number;
  deviceName?: string;
  status?: DeviceStatus;
  category?: DeviceCategory;
  expiry?: ExpiryFilter;
}

export interface DeviceForm {
  deviceGuid: string;
  deviceName: string;
  timeZone: string;
  remark?: string;
  quickSearch?: boolean;
}

export interface Latest {
  deviceId: number;
  lastDataTime: string | null;
  values: SensorValues;
  battery: number | null;
  signal: number | null;
  lat: number | null;
  lng: number | null;
}

export interface ChartPoint {
  t: number;
  /** null: the api's gap marker (no data for longer than `gapSeconds`); the chart draws no line across it. */
  v: number | null;
  min?: number | null;
  max?: number | null;
  /** true: a back-filled reading (received long after its time). */
  b?: boolean;
  /** true: taken while its probe's calibration was overdue (issue 48). */
  o?: boolean;
  /** true: corrected by its probe's valid certificate (the device applies the correction); `r` is the raw value. */
  c?: boolean;
  r?: number | null;
}

/** A span (epoch ms) whose values a certificate corrected (the device's calibration correction, issue 48). */
export interface ChartCorrection {
  start: number;
  end: number;
  certificate: string;
}

/** A span (epoch ms) during which a probe's calibration was overdue: after its latest certificate's due date. */
export interface ChartOverdue {
  start: number;
  end: number;
}

export interface ChartGap {
  /** Epoch ms of the last point before and the first after. */
  start: number;
  end: number;
  seconds: number;
}

export type TemperatureUnit = 'C' | 'F';

export interface ChartAnswer {
  bucketSeconds: number;
  unit: TemperatureUnit;
  series: Record<string, ChartPoint[]>;
  gaps?: Record<string, ChartGap[]>;
  gapSeconds?: number;
  overdue?: Record<string, ChartOverdue[]>;
  /** The device applies its probes' calibration correction to displayed values. */
  corrected?: boolean;
  corrections?: Record<string, ChartCorrection[]>;
}

export interface TrackPoint {
  /** ISO 8601 with the caller's offset. */
  t: string;
  lat: number;
  lng: number;
  battery: number | null;
}

export interface EnergyMonth {
  month: string;
  kwh: number;
}

export interface DeviceEvent {
  id: number;
  action: string;
  detail: Record<string, unknown>;
  accountId: number | null;
  /** Who acted: the real name, else the user name; null for the platform's own steps. */
  actorName: string | null;
  gmtCreate: string;
}

export interface DeviceCommand {
  id: number;
  /** Parameter values by key; a firmware upgrade carries its firmware (an object). */
  params: Record<string, unknown>;
  status: 'pending' | 'applied' | 'failed';
  gmtCreate: string;
  ackedAt: string | null;
}

export type RecordKind = 'maintenance' | 'warranty';

export interface MaintenanceInput {
  deviceId: number;
  kind: RecordKind;
  reportTime: string;
  startTime: string;
  endTime: string;
  person: string;
  approver?: string | null;
  repairer?: string | null;
  reason?: string | null;
  content?: string | null;
  standard?: string | null;
  result?: string | null;
}

export interface MaintenanceRecord extends MaintenanceInput {
  id: number;
  gmtCreate: string;
}

export interface ExpiredInfo {
  id: number | null;
  pushMessages: string[];
  expiredFlag: number;
  counts: Record<string, number>;
}

export interface ExpiredDevice {
  id: number;
  deviceName: string;
  deviceGuid: string;
  serviceExpiredDate: string | null;
}

/** What a visitor sees: nothing of the owner, not even the device's name. */
export interface QuickQueryAnswer {
  deviceGuid: string;
  typeName: string;
  status: DeviceStatus;
  lastDataTime: string | null;
  values: SensorValues;
  params: DeviceParam[];
  chart: Record<string, ChartPoint[]>;
}

export const devicePageKey = (query: DevicePageQuery) => readKey(`${BASE}/Device/page`, query, 'post');

export const statusCountKey = () => readKey(`${BASE}/Device/statusCount`);
export function statusCount(): Promise<StatusCount> {
  return fetchRead<StatusCount>(statusCountKey());
}

export const deviceDetailKey = (id: number) => readKey(`${BASE}/Device/detail/${id}`);
export function deviceDetail(id: number): Promise<DeviceDetail> {
  return fetchRead<DeviceDetail>(deviceDetailKey(id));
}

/** Form errors (unknown GUID...) come back to the form when handleErrors is false. */
export function addDevice(form: DeviceForm, options?: RequestOptions): Promise<Device> {
  return post<Device>(`${BASE}/Device/add`, form, options);
}

export function updateDevice(
  deviceId: number,
  form: Omit<DeviceForm, 'deviceGuid'>,
  options?: RequestOptions,
): Promise<Device> {
  return put<Device>(`${BASE}/Device/update`, { deviceId, ...form }, options);
}

export type DeviceAction = 'enable' | 'stopUsing' | 'scrap';

export function deviceAction(action: DeviceAction, id: number): Promise<unknown> {
  return put(`${BASE}/Device/${action}/${id}`);
}

export type BatchAction = 'enable' | 'stopUsing' | 'scrap' | 'delete' | 'pin' | 'unpin';

export interface BatchResult {
  deviceId: number;
  ok: boolean;
  msg: string | null;
}

/** One action on several devices; each device answers on its own. */
export function batchAction(action: BatchAction, deviceIds: number[]): Promise<BatchResult[]> {
  return post<BatchResult[]>(`${BASE}/Device/batch`, { action, deviceIds });
}

export function setFocus(id: number, focus: boolean): Promise<unknown> {
  return put(`${BASE}/Device/focus/${id}`, { focus });
}

export function deleteDevice(id: number): Promise<unknown> {
  return del(`${BASE}/Device/delete/${id}`);
}

export const latestDataKey = (deviceId: number) => readKey(`${BASE}/DeviceData/latest`, { deviceId });

export interface ChartQuery {
  deviceId: number;
  start: string;
  end: string;
  sensors: string;
  unit: TemperatureUnit;
}

export const chartDataKey = (query: ChartQuery) => readKey(`${BASE}/DeviceData/chart`, query);

export const trackDataKey = (deviceId: number, start: string, end: string) =>
  readKey(`${BASE}/DeviceData/track`, { deviceId, start, end });

export const energyDataKey = (deviceId: number) => readKey(`${BASE}/DeviceData/energy`, { deviceId });

export const deviceEventsKey = (deviceId: number) => readKey(`${BASE}/DeviceEvent/list`, { deviceId });

/** The same settings to several devices of one model: a result per device. */
export function sendBatchCommand(deviceIds: number[], params: Record<string, number>): Promise<BatchResult[]> {
  return post<BatchResult[]>(`${BASE}/DeviceCommand/batchSend`, { deviceIds, params });
}

export function sendCommand(deviceId: number, params: Record<string, number>): Promise<DeviceCommand> {
  return post<DeviceCommand>(`${BASE}/DeviceCommand/send`, { deviceId, params });
}

export const deviceCommandsKey = (deviceId: number) => readKey(`${BASE}/DeviceCommand/list`, { deviceId });

export const maintenancePageKey = (query: { deviceId: number; kind: RecordKind; start: number; pageSize: number }) =>
  readKey(`${BASE}/MaintenanceRecord/page`, query, 'post');
export function maintenancePage(query: {
  deviceId: number;
  kind: RecordKind;
  start: number;
  pageSize: number;
}): Promise<Page<MaintenanceRecord>> {
  return fetchRead<Page<MaintenanceRecord>>(maintenancePageKey(query));
}

export function insertMaintenance(record: MaintenanceInput): Promise<MaintenanceRecord> {
  return post<MaintenanceRecord>(`${BASE}/MaintenanceRecord/insert`, record);
}

export function updateMaintenance(record: MaintenanceInput & { id: number }): Promise<MaintenanceRecord> {
  return put<MaintenanceRecord>(`${BASE}/MaintenanceRecord/update`, record);
}

export function deleteMaintenance(id: number): Promise<unknown> {
  return del(`${BASE}/MaintenanceRecord/delete/${id}`);
}

/** Service expiry reminder (spec 7.2: type=1, called when a token appears). */
/** The service reminder: a failure stays silent (quiet). */
export const expiredInfoKey = () => quietReadKey(`${BASE}/DeviceExpireInfo/getExpiredInfoByType`, { type: 1 });

export const expiredServiceDevicesKey = (query: {
  start: number;
  pageSize: number;
  accountId?: number;
  expiredFlag: number;
}) => readKey(`${BASE}/Device/getExpiredServiceDevice`, query);

/** Public: no token needed. */
export const quickQueryKey = (guid: string) => quietReadKey(`${BASE}/Device/quickQuery`, { guid });
