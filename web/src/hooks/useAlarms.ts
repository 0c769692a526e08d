import useSWR from 'swr';
import { deviceAlarmStatus, pushSetting, sensorLimits, unreadCount } from '@/api/alarm';

/** New alarms show up without a reload: the unread count and lists poll at this pace. */
export const ALARM_REFRESH_MS = 10_000;

/** Unread messages for the header badge; null key (paused) until someone is signed in. */
export function useUnreadCount(enabled: boolean) {
  return useSWR(enabled ? ['alarm-unread'] : null, () => unreadCount(), { refreshInterval: ALARM_REFRESH_MS });
}

export function useDeviceAlarmStatus(deviceId: number | null) {
  return useSWR(deviceId ? ['alarm-device-status', deviceId] : null, () => deviceAlarmStatus(deviceId as number), {
    refreshInterval: ALARM_REFRESH_MS,
  });
}

export function usePushSetting(deviceId: number | null) {
  return useSWR(deviceId ? ['alarm-push-setting', deviceId] : null, () => pushSetting(deviceId as number));
}

export function useSensorLimits(deviceId: number | null) {
  return useSWR(deviceId ? ['alarm-limits', deviceId] : null, () => sensorLimits(deviceId as number));
}
