import {
  deviceAlarmStatusKey,
  pushSettingKey,
  sensorLimitsKey,
  unreadCountKey,
  type DeviceAlarmStatus,
  type PushSetting,
  type SensorLimit,
  type UnreadCount,
} from '@/api/alarm';
import { useRead } from './useRead';

/** New alarms show up without a reload: the unread count and lists poll at this pace. */
export const ALARM_REFRESH_MS = 10_000;

/** Unread messages for the header badge; null key (paused) until someone is signed in. */
export function useUnreadCount(enabled: boolean) {
  return useRead<UnreadCount>(enabled ? unreadCountKey() : null, { refreshInterval: ALARM_REFRESH_MS });
}

export function useDeviceAlarmStatus(deviceId: number | null) {
  return useRead<DeviceAlarmStatus>(deviceId ? deviceAlarmStatusKey(deviceId) : null, {
    refreshInterval: ALARM_REFRESH_MS,
  });
}

export function usePushSetting(deviceId: number | null) {
  return useRead<PushSetting>(deviceId ? pushSettingKey(deviceId) : null);
}

export function useSensorLimits(deviceId: number | null) {
  return useRead<SensorLimit[]>(deviceId ? sensorLimitsKey(deviceId) : null);
}
