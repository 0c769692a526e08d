import { del, get, getBlob, post, put } from './client';
import { readKey } from './read';
import type { Schemas } from './generated';

/** A model code of a device type (hex up to four digits). */
export interface DeviceModelCode {
  id?: number;
  modelName: string;
  modelCode: string;
  modelType: string | null;
  modelVolume: string | null;
  temperatureRange: string | null;
  voltage: string | null;
  refrigerationPower: string | null;
  defrostPower: string | null;
  modelFlag: boolean;
}

export type TypeStatus = 'to_test' | 'testing' | 'published';

/** A device type of /operation/device/type (business-domain section 3). */
export interface DeviceType {
  id: number;
  typeName: string;
  typeCode: string;
  typeSeries: string;
  category: 'cold_chain' | 'cold_storage' | 'freezer';
  typeStatus: TypeStatus;
  mapMode: string | null;
  connectType: string | null;
  netType: string;
  wifiType: string | null;
  nodeType: string | null;
  supportsEnergy: boolean;
  supportsPhone: boolean;
  supportsGps: boolean;
  autoPush: boolean;
  batchParam: boolean;
  onlineUpgrade: boolean;
  supportsWaybill: boolean;
  cfMode: string;
  manualUrl: string | null;
  addType: 0 | 1 | 2;
  typeScenes: string[];
  explanation: string | null;
  defaultIntervalS: number;
  models: DeviceModelCode[];
  gmtCreate: string;
}

export interface DeviceTypeOption {
  id: number;
  typeName: string;
  typeCode: string;
  typeStatus: TypeStatus;
  batchParam: boolean;
}

export type Bound = Schemas['Bound'];

/** A parameter of a type (/operation/device/param). */
export interface DeviceParam {
  id: number;
  deviceTypeId: number;
  paramClassify: string;
  paramType: string;
  paramName: string;
  paramKey: string;
  paramCode: string | null;
  paramSortNo: number;
  dataType: string;
  probeId: number | null;
  precisionUnit: number;
  viewPrecisionUnit: number | null;
  paramMin: Bound | null;
  paramMax: Bound | null;
  stepLength: number | null;
  unitId: number | null;
  unitName: string | null;
  readWriteType: 'R' | 'W' | 'RW';
  enforceSend: boolean;
  defaultValue: string | null;
  refParamExpression: string | null;
  bitLength: number | null;
  bitList: { bit: number; name: string }[];
  regExp: string | null;
  regExpTip: string | null;
  mergeGroup: number | null;
}

/** A unit of /operation/device/param/unit with its two formulas in X. */
export interface ParamUnit {
  id: number;
  unitName: string;
  unitCode: string;
  unitClassify: string;
  localeCode: string;
  basicUnitStatus: boolean;
  unitPic: string | null;
  alarmPic: string | null;
  toBasicFormula: string;
  fromBasicFormula: string;
}

const BASE = '/product';

export const deviceTypePageKey = (args: { start: number; pageSize: number; keyword?: string; typeStatus?: string }) =>
  readKey(`${BASE}/DeviceType/page`, args, 'post');
export const deviceTypeOptionsKey = () => readKey(`${BASE}/DeviceType/list`);
export const insertDeviceType = (body: Record<string, unknown>) => post<DeviceType>(`${BASE}/DeviceType/insert`, body);
export const updateDeviceType = (body: Record<string, unknown>) => put<DeviceType>(`${BASE}/DeviceType/update`, body);
export const deleteDeviceType = (id: number) => del<null>(`${BASE}/DeviceType/delete/${id}`);
export const testDeviceType = (id: number) => put<DeviceType>(`${BASE}/DeviceType/test/${id}`);
export const releaseDeviceType = (id: number) => put<DeviceType>(`${BASE}/DeviceType/release/${id}`);

export const deviceParamPageKey = (args: {
  start: number;
  pageSize: number;
  deviceTypeId?: number;
  keyword?: string;
  paramType?: string;
}) => readKey(`${BASE}/DeviceParam/page`, args, 'post');
export const insertDeviceParam = (body: Record<string, unknown>) =>
  post<DeviceParam>(`${BASE}/DeviceParam/insert`, body);
export const updateDeviceParam = (body: Record<string, unknown>) =>
  put<DeviceParam>(`${BASE}/DeviceParam/update`, body);
export const deleteDeviceParam = (id: number) => del<null>(`${BASE}/DeviceParam/delete/${id}`);
export const mergeDeviceParams = (paramIds: number[]) => post<DeviceParam[]>(`${BASE}/DeviceParam/merge`, { paramIds });
export const separateDeviceParams = (paramIds: number[]) =>
  post<DeviceParam[]>(`${BASE}/DeviceParam/separate`, { paramIds });

export const paramUnitPageKey = (args: { start: number; pageSize: number; keyword?: string; unitClassify?: string }) =>
  readKey(`${BASE}/ParamUnit/page`, args, 'post');
export const paramUnitOptionsKey = () => readKey(`${BASE}/ParamUnit/list`);
export const insertParamUnit = (body: Record<string, unknown>) => post<ParamUnit>(`${BASE}/ParamUnit/insert`, body);
export const updateParamUnit = (body: Record<string, unknown>) => put<ParamUnit>(`${BASE}/ParamUnit/update`, body);
export const deleteParamUnit = (id: number) => del<null>(`${BASE}/ParamUnit/delete/${id}`);
export const convertWithFormula = (formula: string, value: number) =>
  post<{ value: number }>(`${BASE}/ParamUnit/convert`, { formula, value });

export const getDeviceTypeOptions = () => get<DeviceTypeOption[]>(`${BASE}/DeviceType/list`);

/** A GUID batch (/operation/device/guid/content). */
export interface GuidBatch {
  id: number;
  orderCode: string;
  num: number;
  deviceTypeId: number;
  typeName: string;
  deviceTag: string | null;
  domainId: number;
  domainName: string;
  claimed: number;
  exports: number;
  gmtCreate: string;
}

export interface GuidExportRecord {
  id: number;
  batchId: number;
  orderCode: string;
  num: number;
  fileFormat: 'csv' | 'xlsx';
  userName: string | null;
  gmtCreate: string;
}

export interface Domain {
  id: number;
  name: string;
  topDomain: string;
}

/** A SIM card (/operation/sim/list); balance in cents. */
export interface SimCard {
  id: number;
  cardNum: string;
  iccId: string;
  operator: string | null;
  openTime: string | null;
  activeTime: string | null;
  expiredTime: string | null;
  balance: number;
  lastOnline: string | null;
  useState: 'unused' | 'in_use' | 'suspended' | 'cancelled';
  rechargeState: 'not_recharged' | 'recharged' | 'failed';
  remark: string | null;
  deviceId: number | null;
  deviceGuid: string | null;
}

export interface SimImportResult {
  imported: number;
  rows: { row: number; iccId: string | null; ok: boolean; message: string | null }[];
}

export const guidBatchPageKey = (args: {
  start: number;
  pageSize: number;
  orderCode?: string;
  deviceTypeId?: number;
}) => readKey(`${BASE}/GuidBatch/page`, args, 'post');
export const guidBatchGuidsKey = (args: { start: number; pageSize: number; batchId: number }) =>
  readKey(`${BASE}/GuidBatch/guids`, args, 'post');
export const guidDomainsKey = () => readKey(`${BASE}/GuidBatch/domains`);
export const issueGuidBatch = (body: Record<string, unknown>) => post<GuidBatch>(`${BASE}/GuidBatch/insert`, body);
export const voidGuids = (guids: string[], reason: string) =>
  post<unknown>(`${BASE}/GuidBatch/void`, { guids, reason });
export const exportGuidBatch = (id: number, format: 'csv' | 'xlsx') =>
  getBlob(`${BASE}/GuidBatch/export/${id}`, { format });
export const guidExportPageKey = (args: { start: number; pageSize: number; orderCode?: string }) =>
  readKey(`${BASE}/GuidExport/page`, args, 'post');

export const simCardPageKey = (args: { start: number; pageSize: number; keyword?: string; useState?: string }) =>
  readKey(`${BASE}/SimCard/page`, args, 'post');
export const insertSimCard = (body: Record<string, unknown>) => post<SimCard>(`${BASE}/SimCard/insert`, body);
export const updateSimCard = (body: Record<string, unknown>) => put<SimCard>(`${BASE}/SimCard/update`, body);
export const deleteSimCard = (id: number) => del<null>(`${BASE}/SimCard/delete/${id}`);
export const bindSimCard = (id: number, deviceGuid: string | null) =>
  post<SimCard>(`${BASE}/SimCard/bind`, { id, deviceGuid });
export const simImportTemplate = () => getBlob(`${BASE}/SimCard/template`);
export function importSimCards(file: File): Promise<SimImportResult> {
  const form = new FormData();
  form.append('file', file);
  return post<SimImportResult>(`${BASE}/SimCard/import`, form, { headers: { 'Content-Type': 'multipart/form-data' } });
}

/** An alarm or warning rule of a device type (the alarm area's /api/alarm/AlarmRule calls). */
export interface AlarmRule {
  id: number;
  deviceTypeId: number;
  alarmKind: 'upper' | 'lower' | 'offline' | 'battery' | 'fault' | 'fence' | 'budget';
  ruleClass: 'alarm' | 'warning';
  ruleName: string;
  content: string | null;
  alarmLevel: number;
  activeDefault: boolean;
  threshold: number | null;
  templateId: number | null;
}

/** A message template: per-language bodies with placeholders such as {device} {value}. */
export interface MessageTemplate {
  id: number;
  msgName: string;
  type: 'sms' | 'voice' | 'email' | 'webhook';
  content: Partial<Record<'zh-CN' | 'en-US', string>>;
}

export const alarmRuleListKey = (ruleClass: 'alarm' | 'warning') => readKey('/alarm/AlarmRule/list', { ruleClass });
export const saveAlarmRule = (body: Record<string, unknown>) => post<AlarmRule>('/alarm/AlarmRule/save', body);
export const deleteAlarmRule = (id: number) => del<null>(`/alarm/AlarmRule/delete/${id}`);
export const messageTemplateListKey = () => readKey('/alarm/MessageTemplate/list');
export const saveMessageTemplate = (body: Record<string, unknown>) =>
  post<MessageTemplate>('/alarm/MessageTemplate/save', body);

/** A data-API key (/operation/dataApi); `secret` only in the answer that created it. */
export interface DataApiKey {
  id: number;
  accountId: number;
  userName: string;
  name: string;
  keyPrefix: string;
  ratePerMinute: number;
  gmtCreate: string;
  lastUsedTime: string | null;
  revokedTime: string | null;
  secret?: string;
}

export const dataApiKeyPageKey = (args: { start: number; pageSize: number; keyword?: string }) =>
  readKey(`${BASE}/DataApiKey/page`, args, 'post');
export const insertDataApiKey = (body: Record<string, unknown>) => post<DataApiKey>(`${BASE}/DataApiKey/insert`, body);
export const revokeDataApiKey = (id: number) => put<DataApiKey>(`${BASE}/DataApiKey/revoke/${id}`);

/** The operator's fleet views (read only). */
export interface FleetDevice {
  id: number;
  deviceName: string | null;
  deviceGuid: string;
  typeName: string;
  ownerName: string | null;
  platform: string;
  simCardNum: string | null;
  status: string;
  lastDataTime: string | null;
  serviceExpireTime: string | null;
  claimedTime: string | null;
  firmwareVersion: string | null;
  /** deleted by its owner and not added again: the GUID can be added again */
  deleted: boolean;
  /** an unused GUID the operator voided */
  voided: boolean;
}
export interface FleetDeviceFilters {
  keyword?: string;
  userName?: string;
  deviceTypeId?: number;
  status?: string;
}
export interface FleetAlarm {
  id: number;
  kind: string;
  status: string;
  sensor: number | null;
  limitValue: number | null;
  peakValue: number | null;
  processState: string;
  startedAt: string;
  closedAt: string | null;
  deviceId: number;
  deviceName: string | null;
  deviceGuid: string;
  typeName: string;
  ownerName: string | null;
}
export interface FleetAlarmFilters {
  keyword?: string;
  userName?: string;
  kind?: string;
  status?: string;
  startTime?: string;
  endTime?: string;
}
export const fleetDevicePageKey = (args: { start: number; pageSize: number } & FleetDeviceFilters) =>
  readKey(`${BASE}/FleetDevice/page`, args, 'post');
export const fleetAlarmPageKey = (args: { start: number; pageSize: number } & FleetAlarmFilters) =>
  readKey(`${BASE}/FleetAlarm/page`, args, 'post');

// ---- series, firmware versions and over-the-air upgrades (/operation/device/series, /version) ----

export interface DeviceSeries {
  id: number;
  seriesName: string;
  typeCount: number;
  gmtCreate: string;
}
export interface Firmware {
  id: number;
  deviceTypeId: number;
  typeName: string;
  latestVersionValue: string;
  latestVersionLabel: string;
  versionDescrip: string | null;
  fileName: string | null;
  fileSize: number;
  sha256: string;
  gmtCreate: string;
}
export type RolloutStatus = 'running' | 'completed' | 'stopped' | 'cancelled';
export type TargetState = 'waiting' | 'queued' | 'downloading' | 'installing' | 'installed' | 'failed';
export interface RolloutGroup {
  stage: number;
  percent: number;
  devices: number;
  counts: Partial<Record<TargetState, number>>;
}
export interface Rollout {
  id: number;
  firmwareId: number;
  latestVersionValue: string;
  typeName: string;
  stages: number[];
  currentStage: number;
  failureThreshold: number;
  ratePerMinute: number;
  status: RolloutStatus;
  stopReason: string | null;
  total: number;
  counts: Record<TargetState, number>;
  groups: RolloutGroup[];
  timeoutMinutes: number;
  gmtCreate: string;
  finishTime: string | null;
}
export interface UpgradeTarget {
  deviceId: number;
  deviceGuid: string;
  deviceName: string | null;
  stage: number;
  state: TargetState;
  fromVersion: string | null;
  firmwareVersion: string | null;
  attempts: number;
  sentTime: string | null;
  updateTime: string | null;
  error: string | null;
}
export interface RolloutDetail extends Rollout {
  targets: UpgradeTarget[];
}

export const seriesPageKey = (args: { start: number; pageSize: number; keyword?: string }) =>
  readKey(`${BASE}/DeviceSeries/page`, args, 'post');
export const seriesOptionsKey = () => readKey(`${BASE}/DeviceSeries/list`);
export const insertSeries = (body: { seriesName: string }) => post<DeviceSeries>(`${BASE}/DeviceSeries/insert`, body);
export const updateSeries = (body: { id: number; seriesName: string }) =>
  put<DeviceSeries>(`${BASE}/DeviceSeries/update`, body);
export const deleteSeries = (id: number) => del<null>(`${BASE}/DeviceSeries/delete/${id}`);

export const firmwarePageKey = (args: { start: number; pageSize: number; deviceTypeId?: number; keyword?: string }) =>
  readKey(`${BASE}/Firmware/page`, args, 'post');
export const deleteFirmware = (id: number) => del<null>(`${BASE}/Firmware/delete/${id}`);
/** The version's fields go in the query, the file in the multipart body (upgradeMultipartFile). */
export function uploadFirmware(
  fields: {
    deviceTypeId: number;
    latestVersionValue: string;
    latestVersionLabel: string;
    versionDescrip?: string | null;
  },
  file: File,
): Promise<Firmware> {
  const form = new FormData();
  form.append('upgradeMultipartFile', file);
  const params = Object.fromEntries(
    Object.entries(fields).filter(([, v]) => v !== undefined && v !== null && v !== ''),
  );
  return post<Firmware>(`${BASE}/Firmware/upload`, form, {
    params,
    headers: { 'Content-Type': 'multipart/form-data' },
  });
}

export const rolloutPageKey = (args: {
  start: number;
  pageSize: number;
  firmwareId?: number;
  status?: RolloutStatus;
}) => readKey(`${BASE}/UpgradeRollout/page`, args, 'post');
export const rolloutDetailKey = (id: number) => readKey(`${BASE}/UpgradeRollout/detail/${id}`);
export const insertRollout = (body: {
  firmwareId: number;
  deviceIds?: number[];
  allDevices?: boolean;
  stages: number[];
  failureThreshold: number;
  ratePerMinute: number;
}) => post<Rollout>(`${BASE}/UpgradeRollout/insert`, body);
export const retryRollout = (rolloutId: number, deviceIds?: number[]) =>
  put<Rollout>(`${BASE}/UpgradeRollout/retry`, { rolloutId, deviceIds });
export const cancelRollout = (id: number) => put<Rollout>(`${BASE}/UpgradeRollout/cancel/${id}`);
