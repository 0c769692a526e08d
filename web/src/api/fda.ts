/** FDA 21 CFR Part 11 (/fda): FDA mode, endorsements, data files and their electronic signatures. */
import type { Page } from '@/components/ui/table';
import { del, get, post, put } from './client';
import { API_BASE } from './constants';
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

/** A request to turn an owner's FDA mode off, waiting for a second person's signature. */
export interface OffRequest {
  id: number;
  ownerUserName: string;
  ownerAccountId: number;
  requestedBy: string | null;
  requestedAt: string;
  reason: string;
}

export interface FdaConfig {
  enabled: boolean;
  pendingOff: OffRequest | null;
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
/** On: done at once. Off: a pending request until a second person approves it (approveOff). */
export const updateFdaConfig = (body: Credentials & { enabled: boolean; reason: string }) =>
  put<FdaConfig>(`${BASE}/FdaConfig/update`, body);
/** Requests to turn an owner's FDA mode off that the signed-in account may approve. */
export const offRequestsKey = () => readKey(`${BASE}/FdaConfig/offRequests`);
export const approveOff = (body: Credentials & { requestId: number; meaning: string }) =>
  post<null>(`${BASE}/FdaConfig/approveOff`, body);
export const cancelOff = (requestId: number) => post<FdaConfig>(`${BASE}/FdaConfig/cancelOff`, { requestId });

export interface Endorsement {
  id: number;
  endorsementName: string;
  description: string;
  gmtCreate: string;
}

export type EndorsementFilters = { endorsementName?: string };
export const endorsementPageKey = (args: PageArgs & EndorsementFilters) =>
  readKey(`${BASE}/Endorsement/page`, args, 'post');
export const endorsementPage = (args: PageArgs & EndorsementFilters) =>
  fetchRead<Page<Endorsement>>(endorsementPageKey(args));
export const saveEndorsement = (input: { id?: number; endorsementName: string; description: string }) =>
  input.id
    ? put<Endorsement>(`${BASE}/Endorsement/update`, input)
    : post<Endorsement>(`${BASE}/Endorsement/insert`, input);
export const deleteEndorsement = (id: number) => del<null>(`${BASE}/Endorsement/delete/${id}`);

/** A step of the account's signing sequence: its role, meanings and signers (empty: any). */
export interface SequenceStep {
  step: number;
  role: StepRole;
  roleName: string;
  endorsementIds: number[];
  signerIds: number[];
}

export interface SigningSequence {
  configured: boolean;
  steps: SequenceStep[];
}

export const signingSequenceKey = () => readKey(`${BASE}/SigningSequence/get`);
/** A reason is asked in FDA mode (the request client's EvidencePrompt). */
export const updateSigningSequence = (steps: { role: StepRole; endorsementIds: number[]; signerIds: number[] }[]) =>
  put<SigningSequence>(`${BASE}/SigningSequence/update`, { steps });

export type SubjectType = 'device' | 'storage' | 'waybill';

export interface Signature {
  /** The step of the file's signing sequence this signature signed (1 for a one-step file). */
  step: number;
  role: string;
  roleName: string;
  printedName: string;
  userName: string;
  /** The signer's account id, shown beside the user name (it never passes to anyone else). */
  signerAccountId: number | null;
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

/** A step's signature as manifested (21 CFR 11.50). */
export interface Manifestation {
  printedName: string;
  userName: string;
  accountId: number | null;
  signedAt: string;
  /** The signer's local time with the zone's name and offset. */
  signedAtText: string;
  timeZone: string;
  meaning: string;
  meaningDescription: string;
}

export type StepRole = 'author' | 'reviewer' | 'approver';

/** A step of a file's signing sequence: signed, current (next to sign) or pending. */
export interface FileStep {
  step: number;
  /** '' for a file signed in one step before sequences existed. */
  role: StepRole | '';
  roleName: string;
  state: 'signed' | 'current' | 'pending';
  assigneeId: number | null;
  assignee: string | null;
  signature: Manifestation | null;
}

export type SignState = 'unsigned' | 'in_review' | 'signed';

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
  signState: SignState;
  exportFileId: number | null;
  mine: boolean;
  canSign: boolean;
  signature: Signature | null;
  integrity: Integrity | null;
  steps: FileStep[];
  nextStep: FileStep | null;
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

export type DataFileFilters = { fileName?: string; signState?: SignState };
export const dataFilePageKey = (args: PageArgs & DataFileFilters) =>
  readKey(`${BASE}/ElectronicSignature/page`, args, 'post');
export const dataFileDetailKey = (id: number) => readKey(`${BASE}/ElectronicSignature/detail/${id}`);
export const checkersKey = () => readKey(`${BASE}/ElectronicSignature/checkers`);
export const insertDataFile = (input: DataFileInput) => post<DataFile>(`${BASE}/ElectronicSignature/insert`, input);
export const deleteDataFile = (id: number) => del<null>(`${BASE}/ElectronicSignature/delete/${id}`);
/** Assign the file's current step, or `step` ahead. */
export const assignDataFile = (id: number, checkerId: number, step?: number) =>
  put<DataFile>(`${BASE}/ElectronicSignature/assign`, { id, checkerId, step });
/** The meanings the caller may sign the file's current step with: the file owner's, for a member too. */
export const fileMeaningsKey = (id: number) => readKey(`${BASE}/ElectronicSignature/meanings/${id}`);
export const signDataFile = (
  body: Credentials & { id: number; endorsementId: number; step?: number; reason?: string },
) => post<DataFile>(`${BASE}/ElectronicSignature/sign`, body);
export const requestSignedPdf = (fileId: number) => post<ExportFile>(`${BASE}/ElectronicSignature/pdf`, { fileId });
export const dataFileDetail = (id: number) => get<DataFile>(`${BASE}/ElectronicSignature/detail/${id}`);

/** What the verification link of a signed PDF shows anyone holding it (public). */
export interface PublicVerification {
  fileName: string;
  collectBegin: string;
  collectEnd: string;
  signature: Signature;
  /** Every step's signature, in order. */
  signatures: Signature[];
  integrity: Integrity;
  documentHash: string | null;
  versions: RecordVersion[];
}

/** A limit of a frozen record as printed at signing. */
export interface FrozenSensor {
  deviceName: string;
  name: string;
  unit: string;
  lower: number | null;
  upper: number | null;
  excursions: number;
  secondsAbove: number;
  secondsBelow: number;
}

/** A stored version of a signed file: what it printed and the hashes written when it was sealed. */
export interface RecordVersion {
  version: number;
  createdAt: string;
  reason: string;
  pdfHash: string;
  snapshotHash: string;
  sealHash: string;
  intact: boolean;
  /** The site's seal certificate (subject) and the trusted RFC 3161 time of the seal. */
  sealSubject: string | null;
  timestampAt: string | null;
  deviceNames: string[];
  timeZone: string | null;
  readings: number | null;
  recordHash: string | null;
  sensors: FrozenSensor[];
}

export const verifyKey = (code: string) => readKey(`${BASE}/ElectronicSignature/verify`, { code });

/** One stored version's PDF checked as a PDF reader would (public). */
export interface VersionSeal {
  version: number;
  pdfHash: string;
  hashMatches: boolean;
  sealValid: boolean;
  intact: boolean;
  trusted: boolean;
  timestampValid: boolean;
  sealSubject: string | null;
  timestampAt: string | null;
}

export const verifySealKey = (code: string, version: number) =>
  readKey(`${BASE}/ElectronicSignature/verify/seal`, { code, version });

/** The public download of one stored version's PDF, its bytes as they were sealed. */
export const versionPdfUrl = (code: string, version: number) =>
  `${API_BASE}${BASE}/ElectronicSignature/verify/pdf?${new URLSearchParams({ code, version: String(version) }).toString()}`;
