/** Alarm calls (all under /alarm): the message centre, a device's alarms, push settings and limits. */
import type { Page } from '@/components/ui/table';
import { get, post, put, type RequestOptions } from './client';

const BASE = '/alarm';

export type AlarmKind = 'upper' | 'lower' | 'offline' | 'battery' | 'fault';
export type ProcessState = 'pending' | 'agreed' | 'rejected' | 'on_hold';
export type ResultState = Exclude<ProcessState, 'pending'>;
export type MessageType = 'alarm' | 'system';
export type Channel = 'sms' | 'voice' | 'email' | 'webhook';
export type RecipientLang = 'zh-CN' | 'en-US';

export const ALARM_KINDS: AlarmKind[] = ['upper', 'lower', 'offline', 'battery', 'fault'];
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
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  lastError: string | null;
  providerRef: string | null;
  gmtCreate: string;
  sendTime: string | null;
}

export interface Recipient {
  name: string;
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
  intervalMinutes: number;
  delayMinutes: number;
  scheduleStart: string | null;
  scheduleEnd: string | null;
  urgentKinds: AlarmKind[];
  webhookUrl: string | null;
  webhookSecret?: string | null;
  smsCount?: number;
  voiceCount?: number;
}

export interface SensorLimit {
  sensor: number;
  upperLimit: number | null;
  lowerLimit: number | null;
  delayMinutes: number;
  enabled: boolean;
}

export function messagePage(query: MessageQuery): Promise<Page<AlarmMessage>> {
  return post<Page<AlarmMessage>>(`${BASE}/AlarmMessage/page`, query);
}

export function unreadCount(): Promise<UnreadCount> {
  return get<UnreadCount>(`${BASE}/AlarmMessage/unreadCount`);
}

export function markRead(ids?: number[]): Promise<{ processed: number }> {
  return put<{ processed: number }>(`${BASE}/AlarmMessage/read`, ids ? { ids } : {});
}

export function processMessages(ids: number[], processState: ResultState, result?: string): Promise<{ processed: number }> {
  return put<{ processed: number }>(`${BASE}/AlarmMessage/process`, { ids, processState, result: result || null });
}

export function deviceAlarmStatus(deviceId: number): Promise<DeviceAlarmStatus> {
  return get<DeviceAlarmStatus>(`${BASE}/Alarm/deviceStatus`, { deviceId });
}

export function alarmPage(query: { deviceId: number; start: number; pageSize: number; status?: 'open' | 'closed' }): Promise<Page<Alarm>> {
  return post<Page<Alarm>>(`${BASE}/Alarm/page`, query);
}

export function alarmNotifications(alarmId: number): Promise<Notification[]> {
  return get<Notification[]>(`${BASE}/Alarm/notifications`, { alarmId });
}

export function pushSetting(deviceId: number): Promise<PushSetting> {
  return get<PushSetting>(`${BASE}/PushSetting/get`, { deviceId });
}

/** Field errors come back to the form when handleErrors is false. */
export function savePushSetting(setting: PushSetting, options?: RequestOptions): Promise<PushSetting> {
  return post<PushSetting>(`${BASE}/PushSetting/save`, setting, options);
}

export function sensorLimits(deviceId: number): Promise<SensorLimit[]> {
  return get<SensorLimit[]>(`${BASE}/SensorLimit/list`, { deviceId });
}

export function saveSensorLimits(deviceId: number, limits: SensorLimit[], options?: RequestOptions): Promise<SensorLimit[]> {
  return post<SensorLimit[]>(`${BASE}/SensorLimit/save`, { deviceId, limits }, options);
}
