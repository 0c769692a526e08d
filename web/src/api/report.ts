/** Exports, the download centre (/consumer/download) and scheduled reports (all under /report). */
import type { Page } from '@/components/ui/table';
import { fetchRead, readKey } from './read';
import { del, getBlob, post, put, type BlobAnswer, type RequestOptions } from './client';
import type { Schemas } from './generated';

const BASE = '/report';

export type FileType = 'csv' | 'xlsx' | 'pdf' | 'zip';
export type FileStatus = 'generating' | 'generated' | 'failed';
export type Frequency = 'daily' | 'weekly' | 'monthly';

export interface ExportRequest {
  deviceIds: number[];
  sensors?: number[] | null;
  startTime: string;
  endTime: string;
  fileType: FileType;
  unit?: 'C' | 'F' | null;
}

export interface ExportFile {
  id: number;
  fileName: string;
  fileType: FileType;
  status: FileStatus;
  reason: string | null;
  progress: number;
  fileSize: number | null;
  scheduledReportId: number | null;
  backupScheduleId?: number | null;
  contentHash?: string | null;
  createTime: string;
  finishTime: string | null;
  expireTime: string | null;
}

export interface Receiver {
  name: string;
  phone?: string | null;
  email?: string | null;
}

export interface ScheduledReportInput {
  reportName: string;
  reportType: string;
  fileType?: FileType;
  frequency: Frequency;
  receivers: Receiver[];
  /** The devices of a device report. */
  deviceIds?: number[];
  /** The storage (cold storage, freezer or virtual storage) of a storage report. */
  storageId?: number | null;
  nextReportTime: string;
}

export interface ScheduledReport extends ScheduledReportInput {
  id: number;
  timeZone: string;
  lastFileId: number | null;
  createTime: string;
}

export interface ReportKind {
  key: string;
  label: string;
}

export function requestExport(body: ExportRequest, options?: RequestOptions): Promise<ExportFile> {
  return post<ExportFile>(`${BASE}/ExportFile/export`, body, options);
}

export const filePageKey = (query: { start: number; pageSize: number; status?: FileStatus }) =>
  readKey(`${BASE}/ExportFile/page`, query, 'post');
export function filePage(query: { start: number; pageSize: number; status?: FileStatus }): Promise<Page<ExportFile>> {
  return fetchRead<Page<ExportFile>>(filePageKey(query));
}

export function downloadFile(id: number): Promise<BlobAnswer> {
  return getBlob(`${BASE}/ExportFile/download/${id}`);
}

export function deleteFile(id: number): Promise<null> {
  return del<null>(`${BASE}/ExportFile/delete/${id}`);
}

export const reportKindsKey = () => readKey(`${BASE}/ScheduledReport/kinds`);
export function reportKinds(): Promise<ReportKind[]> {
  return fetchRead<ReportKind[]>(reportKindsKey());
}

export const reportPageKey = (query: { start: number; pageSize: number; reportName?: string }) =>
  readKey(`${BASE}/ScheduledReport/page`, query, 'post');
export function reportPage(query: {
  start: number;
  pageSize: number;
  reportName?: string;
}): Promise<Page<ScheduledReport>> {
  return fetchRead<Page<ScheduledReport>>(reportPageKey(query));
}

export function insertReport(body: ScheduledReportInput, options?: RequestOptions): Promise<ScheduledReport> {
  return post<ScheduledReport>(`${BASE}/ScheduledReport/insert`, body, options);
}

export function updateReport(
  body: ScheduledReportInput & { id: number },
  options?: RequestOptions,
): Promise<ScheduledReport> {
  return put<ScheduledReport>(`${BASE}/ScheduledReport/update`, body, options);
}

export function deleteReport(id: number): Promise<null> {
  return del<null>(`${BASE}/ScheduledReport/delete/${id}`);
}

export function sendReportNow(id: number): Promise<ExportFile> {
  return post<ExportFile>(`${BASE}/ScheduledReport/sendNow/${id}`);
}

/** Scheduled backups (/service/scheduledBackup): zip archives of the account's devices, settings and readings. */
export type BackupScheduleInput = Schemas['BackupScheduleInput'];

export interface BackupSchedule extends BackupScheduleInput {
  id: number;
  timeZone: string;
  lastFileId: number | null;
  createTime: string;
}

export const backupPageKey = (query: { start: number; pageSize: number; name?: string }) =>
  readKey(`${BASE}/BackupSchedule/page`, query, 'post');
export const backupArchivesKey = (query: { start: number; pageSize: number; id: number }) =>
  readKey(`${BASE}/BackupSchedule/archives`, query, 'post');

export function insertBackup(body: BackupScheduleInput, options?: RequestOptions): Promise<BackupSchedule> {
  return post<BackupSchedule>(`${BASE}/BackupSchedule/insert`, body, options);
}

export function updateBackup(
  body: BackupScheduleInput & { id: number },
  options?: RequestOptions,
): Promise<BackupSchedule> {
  return put<BackupSchedule>(`${BASE}/BackupSchedule/update`, body, options);
}

export function deleteBackup(id: number): Promise<null> {
  return del<null>(`${BASE}/BackupSchedule/delete/${id}`);
}

export function runBackupNow(id: number): Promise<ExportFile> {
  return post<ExportFile>(`${BASE}/BackupSchedule/runNow/${id}`);
}

/** The file name of a download: RFC 6266 filename* (UTF-8) first, then the plain filename. */
export function fileNameFrom(disposition: string | undefined, fallback: string): string {
  if (!disposition) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(disposition);
  return plain ? plain[1].trim() : fallback;
}

/** Hand a downloaded blob to the browser as a file. */
export function saveBlob(answer: BlobAnswer, fallbackName: string): void {
  const url = URL.createObjectURL(answer.data);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameFrom(answer.headers['content-disposition'], fallbackName);
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
