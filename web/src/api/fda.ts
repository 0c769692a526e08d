/** FDA 21 CFR Part 11 (/fda): FDA mode, endorsements, data files and their electronic signatures. */
import type { Page } from '@/components/ui/table';
import { del, get, post, put } from './client';
import type { ExportFile } from './report';
import { fetchRead, readKey } from './read';

const BASE = '/fda';

export interface PageArgs {
  start: number;
  pageSize: number;
}

/** The two components of an electronic signature, entered again for every signing. */
export interface Credentials {
  checkUserName: string;
  checkPassword: string;
}

export interface FdaConfig {
  enabled: boolean;
  changedAt: string | null;
  changedBy: string | null;
  userName: string;
  printedName: string;
  idleMinutes: number;
  passwordLifetimeDays: number;
}

export const fdaConfigKey = () => readKey(`${BASE}/FdaConfig/get`);
/** Signed in FDA mode: the request client asks for the signature (EvidencePrompt). */
export const updateIdleMinutes = (idleMinutes: number) => put<FdaConfig>(`${BASE}/FdaConfig/idle`, { idleMinutes });
export const updateFdaConfig = (body: Credentials & { enabled: boolean; reason: string }) => put<FdaConfig>(`${BASE}/FdaConfig/update`, body);

export interface Endorsement {
  id: number;
  endorsementName: string;
  description: string;
  gmtCreate: string;
}

export type EndorsementFilters = { endorsementName?: string };
export const endorsementPageKey = (args: PageArgs & EndorsementFilters) => readKey(`${BASE}/Endorsement/page`, args, 'post');
export const endorsementPage = (args: PageArgs & EndorsementFilters) => fetchRead<Page<Endorsement>>(endorsementPageKey(args));
export const saveEndorsement = (input: { id?: number; endorsementName: string; description: string }) =>
  input.id ? put<Endorsement>(`${BASE}/Endorsement/update`, input) : post<Endorsement>(`${BASE}/Endorsement/insert`, input);
export const deleteEndorsement = (id: number) => del<null>(`${BASE}/Endorsement/delete/${id}`);

export type SubjectType = 'device' | 'storage' | 'waybill';

export interface Signature {
  printedName: string;
  userName: string;
  meaning: string;
  meaningDescription: string;
  signedAt: string;
  /** The manifested date and time: the signer's local time, zone name and offset. */
  signedAtText: string;
  timeZone: string;
  recordHash: string;
  readings: number;
  signatureHash: string;
}

export interface Integrity {
  intact: boolean;
  signatureValid: boolean;
  currentHash: string;
  currentReadings: number;
  lateReadings: number;
}

export interface DataFile {
  id: number;
  fileName: string;
  subjectType: SubjectType;
  subjectId: number;
  collectBegin: string;
  collectEnd: string;
  timeZone: string;
  creator: string;
  checkerId: number | null;
  checker: string | null;
  assignState: 'unassigned' | 'assigned';
  signState: 'unsigned' | 'signed';
  exportFileId: number | null;
  mine: boolean;
  canSign: boolean;
  signature: Signature | null;
  integrity: Integrity | null;
  gmtCreate: string;
}

export interface DataFileInput {
  fileName: string;
  subjectType: SubjectType;
  subjectId: number;
  collectBegin: string;
  collectEnd: string;
}

export interface Checker {
  id: number;
  userName: string;
  realName: string | null;
}

export type DataFileFilters = { fileName?: string; signState?: 'unsigned' | 'signed' };
export const dataFilePageKey = (args: PageArgs & DataFileFilters) => readKey(`${BASE}/ElectronicSignature/page`, args, 'post');
export const dataFileDetailKey = (id: number) => readKey(`${BASE}/ElectronicSignature/detail/${id}`);
export const checkersKey = () => readKey(`${BASE}/ElectronicSignature/checkers`);
export const insertDataFile = (input: DataFileInput) => post<DataFile>(`${BASE}/ElectronicSignature/insert`, input);
export const deleteDataFile = (id: number) => del<null>(`${BASE}/ElectronicSignature/delete/${id}`);
export const assignDataFile = (id: number, checkerId: number) => put<DataFile>(`${BASE}/ElectronicSignature/assign`, { id, checkerId });
export const signDataFile = (body: Credentials & { id: number; endorsementId: number; reason?: string }) =>
  post<DataFile>(`${BASE}/ElectronicSignature/sign`, body);
export const requestSignedPdf = (fileId: number) => post<ExportFile>(`${BASE}/ElectronicSignature/pdf`, { fileId });
export const dataFileDetail = (id: number) => get<DataFile>(`${BASE}/ElectronicSignature/detail/${id}`);

/** What the verification link of a signed PDF shows anyone holding it (public). */
export interface PublicVerification {
  fileName: string;
  collectBegin: string;
  collectEnd: string;
  signature: Signature;
  integrity: Integrity;
  documentHash: string | null;
}

export const verifyKey = (code: string) => readKey(`${BASE}/ElectronicSignature/verify`, { code });
