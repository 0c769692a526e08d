/** Calibration service calls (business-domain section 7: /calibration/PriceConf, Application, ResultInfo). */
import { del, get, getBlob, post, put, request, type BlobAnswer, type RequestOptions } from './client';
import type { Schemas } from './generated';
import { readKey } from './read';

const BASE = '/calibration';
const APP = `${BASE}/Application`;
const RESULT = `${BASE}/ResultInfo`;

/** Spec: a status above 6 means the order is cancelled (its PDF download is refused). */
export const CANCELLED_ABOVE = 6;
export const STATUS = {
  submitted: 1,
  confirmed: 2,
  shipped: 3,
  received: 4,
  calibrating: 5,
  completed: 6,
  cancelled: 7,
  rejected: 8,
} as const;
export const LEVELS = ['standard', 'express', 'accredited'] as const;
export type Level = (typeof LEVELS)[number];
/** More instruments than this: the form suggests contacting customer service (the api refuses with 4001). */
export const MAX_ITEMS = 50;
export const TOO_MANY_CODE = 4001;
export const LAB_KEY = 'calibration.lab';

export const isCancelled = (status: number) => status > CANCELLED_ABOVE;

export interface Price {
  level: Level;
  basePrice: number;
  includedPoints: number;
  pointPrice: number;
  currency: string;
  days: number;
}

export interface ItemInput {
  deviceModel: string;
  serial: string;
  quantity: number;
  points: number[];
  range?: string | null;
  unit: string;
  level: Level;
}

export interface Invoice {
  title: string;
  taxNo?: string | null;
  email?: string | null;
  address?: string | null;
}

export interface BaseInfo {
  company: string;
  contact: string;
  phone: string;
  email?: string | null;
  address?: string | null;
  remark?: string | null;
}

export interface ApplyInput extends BaseInfo {
  items: ItemInput[];
  invoice?: Invoice | null;
}

export interface Item extends ItemInput {
  itemId: number;
  deviceId: number | null;
  price: number;
}

export interface Application extends BaseInfo {
  applicationId: number;
  orderNo: string;
  calibrationStatus: number;
  statusName: string;
  invoice: Invoice | null;
  totalPrice: number;
  currency: string;
  trackingCompany: string | null;
  trackingNumber: string | null;
  cancelRequested: boolean;
  cancelReason: string | null;
  cancelAnswer: string | null;
  calibratedAt: string | null;
  gmtCreate: string;
  items: Item[];
}

export type PaymentEvent = 'paid' | 'extra' | 'refunded' | 'refund_by_lab';

export interface History {
  fromStatus: number | null;
  toStatus: number;
  statusName: string;
  note: string | null;
  /** A payment event (the row then repeats the status): paid, paid again, refunded, refunded by the lab. */
  payment: PaymentEvent | null;
  payType: string | null;
  orderCode: string | null;
  gmtCreate: string;
}

/** The payment area's order paying an application (amount in cents, computed by the server). */
export interface ApplicationPayment {
  applicationId: number;
  orderCode: string;
  payFee: number;
  currency: string;
  payStatus: 'unpaid' | 'paid' | 'refunded' | 'closed';
  payType: string | null;
  payTime: string | null;
  refundTime: string | null;
}

export interface CertificateLink {
  itemId: number;
  certificateNumber: string;
  serial: string;
  url: string;
}

export interface ApplicationDetail extends Application {
  payment: ApplicationPayment | null;
  history: History[];
  certificates: CertificateLink[];
  hasReport: boolean;
  owner: boolean;
}

export interface Result {
  resultId: number;
  pointNo: number;
  reference: number;
  reading: number;
  error: number;
  uncertainty: number;
  passed: boolean;
}

export interface PointInput {
  pointNo: number;
  reference: number;
  reading: number;
  error?: number | null;
  uncertainty: number;
  passed: boolean;
}

export interface ItemResults {
  item: Item;
  results: Result[];
}

export interface Explanation {
  items: {
    itemId: number;
    deviceModel: string;
    serial: string;
    passed: boolean | null;
    points: number;
    maxError: number | null;
    maxUncertainty: number | null;
    explanation: string;
  }[];
  statement: string;
}

export interface QuickOrderInput {
  company?: string | null;
  contact: string;
  phone: string;
  deviceModel?: string | null;
  quantity: number;
  remark?: string | null;
}

export interface QuickOrder extends QuickOrderInput {
  quickOrderId: number;
  orderNo: string;
  status: 'pending' | 'handled' | 'closed';
  handleNote: string | null;
  gmtCreate: string;
}

export interface Verification {
  certificateNumber: string;
  lab: string;
  customer: string;
  deviceModel: string;
  serial: string;
  issuedAt: string;
  nextDueAt: string;
  passed: boolean;
  valid: boolean;
  sha256: string | null;
}

export interface DeviceCertificate {
  certificateNumber: string;
  issuedAt: string;
  nextDueAt: string;
  passed: boolean;
  overdue: boolean;
  applicationId: number | null;
  itemId: number | null;
  verifyUrl: string;
}

export interface OrderQuery {
  start: number;
  pageSize: number;
  status?: number | null;
  orderNo?: string | null;
  keyword?: string | null;
}

export const pricesKey = () => readKey(`${BASE}/PriceConf/get/price`);
export const myOrdersKey = (query: OrderQuery) => readKey(`${APP}/page/ApplicationOrder`, query, 'post');
export const allOrdersKey = (query: OrderQuery) => readKey(`${APP}/page/allApplicationOrder`, query, 'post');
export const quickOrdersKey = (query: {
  start: number;
  pageSize: number;
  status?: string | null;
  keyword?: string | null;
}) => readKey(`${APP}/page/allQuickOrder`, query, 'post');
export const applicationKey = (applicationId: number) => readKey(`${APP}/get/applicationInfo`, { applicationId });
export const resultsKey = (applicationId: number) => readKey(`${RESULT}/queryResultList`, { applicationId });
export const explainKey = (applicationId: number) => readKey(`${APP}/result/explain`, { applicationId });
export const userInvoiceKey = () => readKey(`${APP}/getUserInvoice`);
export const verifyKey = (code: string) => readKey(`${BASE}/Certificate/verify`, { code });
export const deviceCertificateKey = (deviceId: number) => readKey(`${BASE}/Certificate/device`, { deviceId });

export const apply = (body: ApplyInput, options?: RequestOptions) => post<Application>(`${APP}/apply`, body, options);
export const applyQuickOrder = (body: QuickOrderInput, options?: RequestOptions) =>
  post<QuickOrder>(`${APP}/applyQuickOrder`, body, options);
export const setStatus = (applicationId: number, status: number, note?: string) =>
  put<Application>(`${APP}/applicationStatus`, { applicationId, status, note });
/** The order paying the application (reused while unpaid); then pay it with the payment area's calls. */
export const payOrder = (applicationId: number) => post<ApplicationPayment>(`${APP}/payOrder`, { applicationId });
export const setTracking = (applicationId: number, trackingCompany: string, trackingNumber: string) =>
  put<Application>(`${APP}/trackingNumber`, { applicationId, trackingCompany, trackingNumber });
export const updateBaseInfo = (body: BaseInfo & { applicationId: number }) =>
  put<Application>(`${APP}/update/baseInfo`, body);
export const updateInvoice = (applicationId: number, invoice: Invoice) =>
  put<Application>(`${APP}/update/invoice`, { applicationId, invoice });
export const cancelApply = (applicationId: number, reason: string) =>
  post<Application>(`${APP}/cancel/apply`, { applicationId, reason });
export const cancelCheck = (applicationId: number, approve: boolean, answer?: string) =>
  put<Application>(`${APP}/cancel/check`, { applicationId, approve, answer });
export const confirmCalibration = (applicationId: number, validMonths: number) =>
  put<Application>(`${APP}/confirmCalibration`, { applicationId, validMonths });
export const handleQuickOrder = (quickOrderId: number, status: 'handled' | 'closed', note?: string) =>
  put<QuickOrder>(`${APP}/handleQuickOrder`, { quickOrderId, status, note });
export const insertResults = (itemId: number, results: PointInput[]) =>
  post<ItemResults>(`${RESULT}/insert`, { itemId, results });
export const updateResult = (body: PointInput & { resultId: number }) => put<Result>(`${RESULT}/update`, body);
export const getQR = (applicationId: number) => get<CertificateLink[]>(`${APP}/getQR`, { applicationId });

function upload(url: string, params: object, file: File): Promise<unknown> {
  const data = new FormData();
  data.append('file', file);
  return request({ method: 'post', url, params, data, headers: { 'Content-Type': 'multipart/form-data' } });
}

export const uploadReport = (applicationId: number, file: File) =>
  upload(`${APP}/upload/report`, { applicationId }, file);
export const importCert = (itemId: number, file: File) => upload(`${RESULT}/importCert`, { itemId }, file);
export const downloadOrder = (applicationId: number, itemId?: number): Promise<BlobAnswer> =>
  getBlob(`${APP}/download/order`, itemId ? { applicationId, itemId } : { applicationId });
export const downloadReport = (applicationId: number): Promise<BlobAnswer> =>
  getBlob(`${APP}/download/report`, { applicationId });

/** Money in cents as "CNY 150.00". */
export function money(cents: number, currency = 'CNY'): string {
  return `${currency} ${(cents / 100).toFixed(2)}`;
}

/** Price of one item as the api computes it (the preview shows it before applying). */
export function itemPrice(prices: Price[] | undefined, item: Pick<ItemInput, 'level' | 'points' | 'quantity'>): number {
  const conf = prices?.find((p) => p.level === item.level);
  if (!conf) return 0;
  return (conf.basePrice + Math.max(0, item.points.length - conf.includedPoints) * conf.pointPrice) * item.quantity;
}

/** A device's probe certificates (issue 48): the lab's and outside labs', per probe, with the overdue state. */
export type DeviceCalibration = Schemas['DeviceCalibration'];
export type ProbeCalibration = Schemas['ProbeCalibration'];
export type ProbeCertificate = Schemas['ProbeCertificate'];
export type ProbeCertificateInput = Schemas['ProbeCertificateInput'];
const PROBE = `${BASE}/ProbeCertificate`;
export const probeCertificatesKey = (deviceId: number) => readKey(`${PROBE}/list`, { deviceId });
export const addProbeCertificate = (body: ProbeCertificateInput, options?: RequestOptions) =>
  post<ProbeCertificate>(`${PROBE}/add`, body, options);
export const uploadProbeCertificate = (id: number, file: File) => upload(`${PROBE}/upload`, { id }, file);
export const downloadProbeCertificate = (id: number): Promise<BlobAnswer> => getBlob(`${PROBE}/download`, { id });
export const deleteProbeCertificate = (id: number) => del<unknown>(`${PROBE}/delete/${id}`);
export type CorrectionSetting = Schemas['CorrectionSetting'];
/** Apply (or not) the certificates' correction to the device's displayed and exported values. */
export const setProbeCorrection = (body: CorrectionSetting, options?: RequestOptions) =>
  post<CorrectionSetting>(`${PROBE}/correction`, body, options);
