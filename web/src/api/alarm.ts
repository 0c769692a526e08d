/** Alarm calls (all under /alarm): the message centre, a device's alarms, push settings and limits. */
import type { Page } from '@/components/ui/table';
import { fetchRead, readKey } from './read';
import { post, put, type RequestOptions } from './client';
import type { Schemas } from './generated';

const BASE = '/alarm';

export type AlarmKind = 'upper' | 'lower' | 'offline' | 'battery' | 'fault' | 'budget';
export type ProcessState = 'pending' | 'agreed' | 'rejected' | 'on_hold';
export type ResultState = Exclude<ProcessState, 'pending'>;
export type MessageType = 'alarm' | 'system';
export type Channel = 'sms' | 'voice' | 'email' | 'webhook';
export type RecipientLang = 'zh-CN' | 'en-US';

export const ALARM_KINDS: AlarmKind[] = ['upper', 'lower', 'offline', 'battery', 'fault', 'budget'];
export const CHANNELS: Channel[] = ['sms', 'voice', 'email', 'webhook'];
export const RESULT_STATES: ResultState[] = ['agreed', 'rejected', 'on_hold'];
/** Business spec 5: alarm handling result max 50. */
export const RESULT_MAX = 50;

export interface Alarm {
  id: number;
  deviceId: number;
  kind: AlarmKind;
  kindText: string;
  sensor: number | null;
  status: 'open' | 'closed';
  startTime: string;
  openTime: string | null;
  closeTime: string | null;
  /** Why it closed without recovering (its device disabled or scrapped, its asset switched off, its waybill completed); null: recovered. */
  closeReason: 'device_disabled' | 'device_scrapped' | 'asset_disabled' | 'waybill_completed' | null;
  durationSeconds: number | null;
  limitValue: number | null;
  firstValue: number | null;
  peakValue: number | null;
  lastValue: number | null;
  processState: ProcessState;
  result: string | null;
  processedBy: string | null;
  processTime: string | null;
  levelReached: number;
  messageId: number | null;
  /** The probe's name and "room · zone · probe" (null for a device alarm). */
  sensorName?: string | null;
  place?: string | null;
  /** The unit of the sensor's values and limit ("°C"); `unitCode` onoff: a state channel. */
  unit: string | null;
  unitCode: string | null;
  /** Every processing decision, oldest first; the latest is `processState`. */
  history?: AlarmDecision[];
  /** Acknowledged (stops repeats and escalation): when, how and by whom (a user, phone or email). */
  ackTime?: string | null;
  ackVia?: AckVia | null;
  ackBy?: string | null;
}

export type AckVia = 'sms' | 'voice' | 'email' | 'console';

export type AckState = Schemas['AckState'];
export type AckLink = Schemas['AckLink'];
export type TimelineEntry = Schemas['TimelineEntry'];

export interface AlarmDecision {
  state: ProcessState;
  result: string | null;
  by: string | null;
  /** ISO 8601 with the caller's offset. */
  time: string;
}

export interface AlarmMessage {
  id: number;
  type: MessageType;
  deviceId: number | null;
  deviceName: string | null;
  deviceGuid: string | null;
  title: string;
  content: string;
  read: boolean;
  gmtCreate: string;
  alarm: Alarm | null;
}

export interface MessageQuery {
  start: number;
  pageSize: number;
  type?: MessageType;
  deviceId?: number;
  state?: ProcessState | 'processed';
  startTime?: string;
  endTime?: string;
}

export interface UnreadCount {
  total: number;
  alarm: number;
  system: number;
  pendingAlarm: number;
}

export interface DeviceAlarmStatus {
  deviceId: number;
  alarmActive: boolean;
  open: Alarm[];
  pendingCount: number;
  smsCount: number;
  voiceCount: number;
}

export interface Notification {
  id: number;
  channel: Channel;
  recipient: string;
  subject: string | null;
  body: string;
  /** logged: no provider is configured, the message was only written to the server log (nobody got it). */
  status: 'pending' | 'sent' | 'logged' | 'failed';
  attempts: number;
  lastError: string | null;
  providerRef: string | null;
  gmtCreate: string;
  sendTime: string | null;
}

export interface Recipient {
  /** 'onCall': the person on call of `scheduleId` (null: the device's schedule by scope) at each send. */
  kind?: 'contact' | 'onCall';
  scheduleId?: number | null;
  name: string | null;
  phone?: string | null;
  email?: string | null;
  lang: RecipientLang;
}

export interface PushLevel {
  level: number;
  minutes: number;
  recipients: Recipient[];
}

export interface PushSetting {
  deviceId: number;
  enabled: boolean;
  multiLevel: boolean;
  levels: PushLevel[];
  channels: Channel[];
  repeatCount: number;
  /** Every level reached repeats at the interval until the alarm is acknowledged. */
  repeatUntilAck?: boolean;
  intervalMinutes: number;
  delayMinutes: number;
  scheduleStart: string | null;
  scheduleEnd: string | null;
  urgentKinds: AlarmKind[];
  webhookUrl: string | null;
  /** Write-only: sent when set or changed, never returned. */
  webhookSecret?: string | null;
  webhookSecretSet?: boolean;
  smsCount?: number;
  voiceCount?: number;
  /** False while nothing is saved (the tab shows "off" and nothing ticked). */
  saved?: boolean;
  /** Write-only: the number of levels kept (levels numbered above it are removed). */
  levelCount?: number;
}

/** What a push-setting form sends: every field it shows; omitted ones keep their stored value. */
export type PushSettingSave = Omit<PushSetting, 'deviceId' | 'webhookSecretSet' | 'smsCount' | 'voiceCount' | 'saved'>;

export type SensorLimit = Schemas['SensorLimit'];

export const messagePageKey = (query: MessageQuery) => readKey(`${BASE}/AlarmMessage/page`, query, 'post');
export function messagePage(query: MessageQuery): Promise<Page<AlarmMessage>> {
  return fetchRead<Page<AlarmMessage>>(messagePageKey(query));
}

export const unreadCountKey = () => readKey(`${BASE}/AlarmMessage/unreadCount`);
export function unreadCount(): Promise<UnreadCount> {
  return fetchRead<UnreadCount>(unreadCountKey());
}

export function markRead(ids?: number[]): Promise<{ processed: number }> {
  return put<{ processed: number }>(`${BASE}/AlarmMessage/read`, ids ? { ids } : {});
}

export function processMessages(
  ids: number[],
  processState: ResultState,
  result?: string,
): Promise<{ processed: number }> {
  return put<{ processed: number }>(`${BASE}/AlarmMessage/process`, { ids, processState, result: result || null });
}

export const deviceAlarmStatusKey = (deviceId: number) => readKey(`${BASE}/Alarm/deviceStatus`, { deviceId });
export function deviceAlarmStatus(deviceId: number): Promise<DeviceAlarmStatus> {
  return fetchRead<DeviceAlarmStatus>(deviceAlarmStatusKey(deviceId));
}

export const alarmPageKey = (query: {
  deviceId: number;
  start: number;
  pageSize: number;
  status?: 'open' | 'closed';
}) => readKey(`${BASE}/Alarm/page`, query, 'post');
export function alarmPage(query: {
  deviceId: number;
  start: number;
  pageSize: number;
  status?: 'open' | 'closed';
}): Promise<Page<Alarm>> {
  return fetchRead<Page<Alarm>>(alarmPageKey(query));
}

export const alarmNotificationsKey = (alarmId: number) => readKey(`${BASE}/Alarm/notifications`, { alarmId });
export function alarmNotifications(alarmId: number): Promise<Notification[]> {
  return fetchRead<Notification[]>(alarmNotificationsKey(alarmId));
}

/** Acknowledge an alarm in the console (a second acknowledgement records nothing). */
export function acknowledgeAlarm(alarmId: number): Promise<AckState> {
  return put<AckState>(`${BASE}/Alarm/acknowledge`, { alarmId });
}

export const alarmTimelineKey = (alarmId: number) => readKey(`${BASE}/Alarm/timeline/${alarmId}`);

/** The alarm an email's acknowledgement link names (public). */
export const ackLinkKey = (token: string) => readKey(`${BASE}/AlarmAck/view`, { token });
export function confirmAckLink(token: string, options?: RequestOptions): Promise<AckLink> {
  return post<AckLink>(`${BASE}/AlarmAck/confirm`, { token }, options);
}

export const pushSettingKey = (deviceId: number) => readKey(`${BASE}/PushSetting/get`, { deviceId });
export function pushSetting(deviceId: number): Promise<PushSetting> {
  return fetchRead<PushSetting>(pushSettingKey(deviceId));
}

/** Field errors come back to the form when handleErrors is false. */
export function savePushSetting(
  setting: PushSettingSave & { deviceId: number },
  options?: RequestOptions,
): Promise<PushSetting> {
  return post<PushSetting>(`${BASE}/PushSetting/save`, setting, options);
}

export const sensorLimitsKey = (deviceId: number) => readKey(`${BASE}/SensorLimit/list`, { deviceId });
export function sensorLimits(deviceId: number): Promise<SensorLimit[]> {
  return fetchRead<SensorLimit[]>(sensorLimitsKey(deviceId));
}

/** One period of a sensor's limits: in force from validFrom until validTo (null: still in force). */
export interface SensorLimitPeriod {
  sensor: number;
  upperLimit: number | null;
  lowerLimit: number | null;
  delayMinutes: number;
  enabled: boolean;
  validFrom: string;
  validTo: string | null;
  changedBy: string | null;
  reason: string | null;
}

export const limitHistoryKey = (deviceId: number) => readKey(`${BASE}/SensorLimit/history`, { deviceId });

export function saveSensorLimits(
  deviceId: number,
  limits: SensorLimit[],
  options?: RequestOptions,
): Promise<SensorLimit[]> {
  return post<SensorLimit[]>(`${BASE}/SensorLimit/save`, { deviceId, limits }, options);
}
