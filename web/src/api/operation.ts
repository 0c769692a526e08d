import { get, post, put } from './client';
import { readKey } from './read';
import type { Page } from '@/components/ui/table';

/** An account as the operator's user list shows it (/operation/consumer/list). */
export interface SystemUser {
  id: number;
  userName: string;
  realName: string | null;
  phone: string | null;
  email: string | null;
  companyName: string | null;
  accountType: 'enterprise' | 'personal';
  staffRole: 'operator' | 'platform_admin' | null;
  platformId: number;
  deletedFlag: boolean;
  locked: boolean;
  gmtCreate: string;
}

export interface SystemUserQuery {
  start: number;
  pageSize: number;
  keyword?: string;
  accountType?: string;
  staffRole?: string;
}

export interface StaffRole {
  staffRole: 'operator' | 'platform_admin';
  permissions: string[];
  users: number;
}

const BASE = '/base/BaseAccount';

export const systemUserListKey = (args: SystemUserQuery) => readKey(`${BASE}/get/list`, args, 'post');
export const systemUserList = (args: SystemUserQuery) => post<Page<SystemUser>>(`${BASE}/get/list`, args);
export const sysAddUser = (body: Record<string, unknown>) => post<SystemUser>(`${BASE}/sysAddUser`, body);
export const sysModifyUser = (body: Record<string, unknown>) => post<SystemUser>(`${BASE}/sysModifyUser`, body);
export const sysDeleteUser = (id: number) => post<null>(`${BASE}/sysDeleteUser`, { id });
/** Staff name the account only: nobody learns the new password; the user sets their own (Forgot password). */
export const resetPasswordBySys = (id: number) =>
  post<{ channel: 'email' | 'sms'; sentTo: string }>(`${BASE}/resetPasswordBySys`, { id });
export const unlockUser = (id: number) => post<null>(`${BASE}/unlock/${id}`);
export const userTypeUpgrade = (id: number, companyName: string) =>
  put<SystemUser>(`${BASE}/userTypeUpgrade`, { id, companyName });
export const staffRoleList = () => get<StaffRole[]>('/base/BaseRole/staffRoleList');
export const staffRoleListKey = () => readKey('/base/BaseRole/staffRoleList');

/** Per-platform settings of /operation/system/manage; secrets come back only as has... flags. */
export interface PlatformSettings {
  platformId: number;
  defaultTimeZone: string;
  defaultLocale: string;
  enableRegister: boolean;
  plcUrl: string | null;
  calibrationUrl: string | null;
  /** cents */
  cloudControlYearlyPrice: number | null;
  sms: { url?: string; key?: string; hasSecret?: boolean };
  voice: { url?: string; key?: string; hasSecret?: boolean };
  email: { host?: string; port?: number; user?: string; from?: string; starttls?: boolean; hasPassword?: boolean };
  social: Partial<Record<'wechat' | 'qq' | 'facebook', { clientId?: string; hasClientSecret?: boolean }>>;
}

const SETTINGS = '/operation/SystemSetting';
export const platformSettingsKey = (platformId: number) => readKey(`${SETTINGS}/get`, { platformId });
export const savePlatformSettings = (body: Record<string, unknown>) => put<PlatformSettings>(`${SETTINGS}/save`, body);
export const sendTestMessage = (platformId: number, channel: 'sms' | 'voice' | 'email', recipient: string) =>
  post<{ providerId: string }>(`${SETTINGS}/sendTest`, { platformId, channel, recipient });

/** What restoring a backup archive put back (POST /report/BackupRestore). */
export interface RestoreResult {
  account: string;
  devices: number;
  readings: number;
}

export function restoreBackup(file: File, platformId: number | null): Promise<RestoreResult> {
  const form = new FormData();
  form.append('file', file);
  return post<RestoreResult>(`/report/BackupRestore${platformId ? `?platformId=${platformId}` : ''}`, form);
}
