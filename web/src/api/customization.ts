import { del, get, post, put } from './client';
import { readKey } from './read';
import type { Branding } from './customPage';

/** A platform as the customization page (/customized/list) edits it (business-domain section 3). */
export interface CustomPage extends Branding {
  titles: Record<string, string>;
  pageManaged: boolean;
  adminAccountId: number | null;
  /** switched off since (null: open) */
  closedTime: string | null;
  adminUserName: string | null;
  /** the seller on receipts, with enterpriseName */
  companyAddress: string | null;
  taxId: string | null;
  gmtCreate: string;
  gmtModified: string;
}

export interface CustomPageAdmin {
  userName: string;
  realName?: string;
  email?: string;
  phone?: string;
}

export interface CustomPageInput {
  id?: number;
  enterpriseName?: string;
  title?: Record<string, string>;
  topDomain?: string;
  domains?: string[];
  https?: boolean;
  loginPage?: string;
  themeColor?: string;
  styleModel?: string;
  defaultLocale?: string;
  enableRegister?: boolean;
  independent?: boolean;
  loginLogo?: string | null;
  indexLogo?: string | null;
  loginBackground?: string | null;
  browserLogo?: string | null;
  recordCompany?: string | null;
  recordNumber?: string | null;
  recordLink?: string | null;
  remark?: string | null;
  companyAddress?: string | null;
  taxId?: string | null;
  admin?: CustomPageAdmin | null;
}

export type UploadField = 'loginLogo' | 'indexLogo' | 'loginBackground' | 'browserLogo';

const BASE = '/base/BaseCustomPage';

export const customPagePageKey = (args: { start: number; pageSize: number; keyword?: string }) =>
  readKey(`${BASE}/get/page`, args, 'post');

export function insertCustomPage(input: CustomPageInput): Promise<CustomPage> {
  return post<CustomPage>(`${BASE}/insert`, input);
}

export function updateCustomPage(input: CustomPageInput): Promise<CustomPage> {
  return put<CustomPage>(`${BASE}/update`, input);
}

/** Switch a site off (its domains show "site closed", nobody signs in there) or on again. */
export function closeCustomPage(id: number, closed: boolean): Promise<CustomPage> {
  return put<CustomPage>(`${BASE}/close`, { id, closed });
}

export function deleteCustomPage(id: number): Promise<null> {
  return del<null>(`${BASE}/delete`, { id });
}

export function getCustomPage(id: number): Promise<CustomPage> {
  return get<CustomPage>(`${BASE}/get/${id}`);
}

/** Upload a logo, background or icon (checked by content on the server); resolves with its url. */
export function uploadBranding(field: UploadField, file: File): Promise<{ url: string; field: UploadField }> {
  const form = new FormData();
  form.append('field', field);
  form.append('file', file);
  // multipart: the browser writes the boundary (axios drops the content type of FormData there).
  return post<{ url: string; field: UploadField }>(`${BASE}/upload`, form, {
    headers: { 'Content-Type': 'multipart/form-data' },
  });
}

/** The certificate that seals a site's signed PDFs and trail heads (never its key). */
export interface SiteSeal {
  id: number;
  platformId: number;
  subject: string;
  issuer: string;
  serialNumber: string;
  notBefore: string;
  notAfter: string;
  origin: 'generated' | 'uploaded';
  keyId: string;
  createdAt: string;
  createdBy: number | null;
  certificatePem: string;
  chainPem: string;
}

/** The site's own certificate: PEM (certificate then chain, and the key) or PKCS#12 (base64). */
export interface SiteSealUpload {
  platformId: number;
  certificate?: string;
  privateKey?: string;
  keyPassword?: string;
  pkcs12?: string;
}

export const siteSealKey = (platformId: number) => readKey(`${BASE}/seal/${platformId}`);

export function uploadSiteSeal(input: SiteSealUpload): Promise<SiteSeal> {
  return post<SiteSeal>(`${BASE}/seal/upload`, input);
}
