/** Waybills, electric fences, share links and the public waybill lookup (api/waybill). */
import type { Page } from '@/components/ui/table';
import { del, post, put } from './client';
import { quietReadKey, readKey } from './read';
import type { Schemas } from './generated';

const W = '/waybill';

export type WaybillState = 'not_started' | 'in_progress' | 'completed';
export type Trigger = 'manual' | 'fence' | 'time';

export interface WaybillInput {
  orderNum: string;
  waybillNum?: string | null;
  goodsName: string;
  expressNumber?: string | null;
  coolerCode?: string | null;
  deviceId: number;
  recordInterval?: number | null;
  upperLimit: number;
  lowerLimit: number;
  airFlag?: boolean;
  fenceModelId?: number | null;
  originFenceId?: number | null;
  destinationFenceId?: number | null;
  startMode?: Trigger;
  stopMode?: Trigger;
  startAt?: string | null;
  stopAt?: string | null;
  ignoreMinutes?: number;
  senderName: string;
  senderPhone: string;
  receiverCompany?: string | null;
  receiverName: string;
  receiverPhone: string;
  alarmName?: string | null;
  alarmPhone?: string | null;
  alarmEmail?: string | null;
}

export interface Waybill extends WaybillInput {
  id: number;
  waybillNum: string;
  deviceName: string | null;
  deviceGuid: string;
  sensor: number;
  state: WaybillState;
  startRequestedAt: string | null;
  startedAt: string | null;
  armedAt: string | null;
  completedAt: string | null;
  disposition: 'released' | 'quarantined' | 'rejected' | null;
  dispositionReason: string | null;
  disposedAt: string | null;
  online: boolean;
  editable: boolean;
  gmtCreate: string;
}

export interface Position {
  ts: string;
  lat: number;
  lng: number;
}

/** Where the temperature was when the truck was here: above the upper or below the lower limit. */
export type Breach = 'upper' | 'lower' | null;

export interface TrackPoint extends Position {
  breach: Breach;
}

/** A halt of five minutes or more. */
export interface TrackStop {
  lat: number;
  lng: number;
  startedAt: string;
  endedAt: string;
  minutes: number;
}

export type TrackTemplateInput = Schemas['TrackTemplateInput'];

export interface TrackTemplate extends TrackTemplateInput {
  id: number;
}

export interface FenceEvent {
  id: number;
  fenceId: number | null;
  fenceName: string;
  kind: 'enter' | 'leave';
  ts: string;
  lat: number;
  lng: number;
  alarmId: number | null;
}

export interface WaybillAlarm {
  kind: string;
  status: string;
  value: number | null;
  limit: number | null;
  startedAt: string;
  closedAt: string | null;
}

export interface WaybillStatus {
  state: WaybillState;
  startedAt: string | null;
  completedAt: string | null;
  elapsedSeconds: number | null;
  distanceMeters: number;
  position: Position | null;
  lastValue: number | null;
  lastDataAt: string | null;
  upperLimit: number;
  lowerLimit: number;
  track: TrackPoint[];
  stops: TrackStop[];
  events: FenceEvent[];
  alarms: WaybillAlarm[];
  temperatures: [number, number | null][];
}

export interface PublicWaybill extends WaybillStatus {
  waybillNum: string;
  trackingNumber: string | null;
}

/** A waybill opened through a share link: until when the link is valid (null: no expiry). */
export interface SharedWaybill extends PublicWaybill {
  expiresAt: string | null;
  /** The expiry in the device's zone with its offset ("2026-11-29 12:00 +08:00"). */
  expiresAtText: string | null;
  timeZone: string;
}

export interface FenceInput {
  name: string;
  shape: 'circle' | 'polygon';
  center?: [number, number] | null;
  radius?: number | null;
  points?: [number, number][];
  alarmEnter?: boolean;
  alarmLeave?: boolean;
}

export interface Fence extends FenceInput {
  id: number;
  gmtCreate: string;
}

export interface WaybillShare {
  id: number;
  waybillId: number;
  tokenHint: string;
  hasPin: boolean;
  expiresAt: string;
  revokedAt: string | null;
  createdAt: string;
  status: 'active' | 'expired' | 'revoked';
  accessCount: number;
  /** Wrong PINs tried on this link from any address; 10 in a row lock it for 15 minutes. */
  pinFailures: number;
  pinLastFailedAt: string | null;
  pinLockedUntil: string | null;
  token?: string;
  path?: string;
}

export interface ShareAccess {
  at: string;
  ip: string | null;
  userAgent: string | null;
  outcome: 'shown' | 'pin' | 'locked' | 'expired' | 'revoked';
}

export interface PageArgs {
  start: number;
  pageSize: number;
}

export const OFFLINE_CODE = 7001;

export const waybillPage = (args: PageArgs & { keyword?: string; state?: WaybillState }) =>
  post<Page<Waybill>>(`${W}/Waybill/page`, args);
export const waybillPageKey = (args: PageArgs & { keyword?: string; state?: WaybillState }) =>
  readKey(`${W}/Waybill/page`, args, 'post');
export const waybillDetailKey = (id: number) => readKey(`${W}/Waybill/detail/${id}`);
export const waybillStatusKey = (id: number) => readKey(`${W}/Waybill/status`, { id });
export const insertWaybill = (input: WaybillInput) => post<Waybill>(`${W}/Waybill/insert`, input);
export const updateWaybill = (input: WaybillInput & { id: number }) => put<Waybill>(`${W}/Waybill/update`, input);
export const deleteWaybill = (id: number) => del<null>(`${W}/Waybill/delete/${id}`);
export const startWaybill = (id: number, confirm = false) =>
  put<Waybill>(`${W}/Waybill/start/${id}`, { confirm }, { handleErrors: confirm });
export const stopWaybill = (id: number) => put<Waybill>(`${W}/Waybill/stop/${id}`);
export const disposeWaybill = (id: number, disposition: 'released' | 'quarantined' | 'rejected', reason?: string) =>
  put<Waybill>(`${W}/Waybill/dispose`, { id, disposition, reason });

export const waybillReport = (id: number, fileType: 'pdf' | 'csv' | 'xlsx') =>
  post<{ id: number }>(`${W}/Waybill/report`, { id, fileType });

export const fencePageKey = (args: PageArgs & { name?: string }) => readKey(`${W}/Fence/page`, args, 'post');
export const insertFence = (input: FenceInput) => post<Fence>(`${W}/Fence/insert`, input);
export const updateFence = (input: FenceInput & { id: number }) => put<Fence>(`${W}/Fence/update`, input);
export const deleteFence = (id: number) => del<null>(`${W}/Fence/delete/${id}`);

export const trackTemplatesKey = () => readKey(`${W}/TrackTemplate/list`);
export const insertTrackTemplate = (input: TrackTemplateInput) =>
  post<TrackTemplate>(`${W}/TrackTemplate/insert`, input);
export const updateTrackTemplate = (input: TrackTemplateInput & { id: number }) =>
  put<TrackTemplate>(`${W}/TrackTemplate/update`, input);
export const deleteTrackTemplate = (id: number) => del<null>(`${W}/TrackTemplate/delete/${id}`);

export const createShare = (waybillId: number, expire: string, expireAt?: string | null, pin?: string | null) =>
  post<WaybillShare>(`${W}/WaybillShare/insert`, { waybillId, expire, expireAt: expireAt ?? null, pin: pin || null });
export const shareListKey = (waybillId: number) => readKey(`${W}/WaybillShare/list`, { waybillId });
export const revokeShare = (id: number) => put<WaybillShare>(`${W}/WaybillShare/revoke/${id}`);
export const shareAccessLogKey = (shareId: number) => readKey(`${W}/WaybillShare/accessLog`, { shareId });

/** Public calls: errors are shown by the page itself (no sign-in, no logout). */
/** Public look-ups: the page shows their failure itself (quiet). */
export const quickWaybillKey = (trackingNumber: string) => quietReadKey(`${W}/WaybillQuick/query`, { trackingNumber });
export const viewShareKey = (token: string, pin?: string) =>
  quietReadKey(`${W}/WaybillShare/view`, { token, pin: pin || null }, 'post');
