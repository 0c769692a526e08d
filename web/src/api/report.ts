/** Exports, the download centre (/consumer/download) and scheduled reports (all under /report). */
import type { Page } from '@/components/ui/table';
import { del, get, getBlob, post, put, type BlobAnswer, type RequestOptions } from './client';

const BASE = '/report';

export type FileType = 'csv' | 'xlsx' | 'pdf';
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
  deviceIds: number[];
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

export function filePage(query: { start: number; pageSize: number; status?: FileStatus }): Promise<Page<ExportFile>> {
  return post<Page<ExportFile>>(`${BASE}/ExportFile/page`, query);
}

export function downloadFile(id: number): Promise<BlobAnswer> {
  return getBlob(`${BASE}/ExportFile/download/${id}`);
}

export function deleteFile(id: number): Promise<null> {
  return del<null>(`${BASE}/ExportFile/delete/${id}`);
}

export function reportKinds(): Promise<ReportKind[]> {
  return get<ReportKind[]>(`${BASE}/ScheduledReport/kinds`);
}

export function reportPage(query: { start: number; pageSize: number; reportName?: string }): Promise<Page<ScheduledReport>> {
  return post<Page<ScheduledReport>>(`${BASE}/ScheduledReport/page`, query);
}

export function insertReport(body: ScheduledReportInput, options?: RequestOptions): Promise<ScheduledReport> {
  return post<ScheduledReport>(`${BASE}/ScheduledReport/insert`, body, options);
}

export function updateReport(body: ScheduledReportInput & { id: number }, options?: RequestOptions): Promise<ScheduledReport> {
  return put<ScheduledReport>(`${BASE}/ScheduledReport/update`, body, options);
}

export function deleteReport(id: number): Promise<null> {
  return del<null>(`${BASE}/ScheduledReport/delete/${id}`);
}

export function sendReportNow(id: number): Promise<ExportFile> {
  return post<ExportFile>(`${BASE}/ScheduledReport/sendNow/${id}`);
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
