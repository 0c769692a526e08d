import { get } from './client';

/** Branding of the site answering a host (the customised data of spec section 3). */
export interface Branding {
  id: number;
  slug: string;
  enterpriseName: string;
  topDomain: string;
  domains: string[];
  /** Already localized to the request's Accept-Language. */
  title: string;
  https: boolean;
  loginPage: string;
  themeColor: string;
  styleModel: string;
  defaultLocale: string;
  /** Per spec 2.1: when set, the register route redirects to sign-in. */
  enableRegister: boolean;
  defaultCamp: boolean;
  independent: boolean;
  browserLogo: string;
  loginLogo: string;
  indexLogo: string;
  loginBackground: string;
  recordCompany: string;
  recordNumber: string;
  recordLink: string;
  remark: string;
  /** Social sign-ins this site offers (only these buttons are shown). */
  socialLogins?: SocialLogin[];
  /** Operator settings (issue 26): the external sites of the plc and calibration serve routes (the
   * menu hides an entry without one) and the cloud-control large screen's yearly price in cents. */
  plcUrl?: string | null;
  calibrationUrl?: string | null;
  cloudControlYearlyPrice?: number | null;
}

export type SocialLogin = 'wechat' | 'qq' | 'facebook';

/**
 * What the page knows about its site: the branding, or why there is none. `unresolved` is a page
 * rendered without a request (static), which resolves the branding in the browser.
 */
export type SiteState =
  | { kind: 'ok'; branding: Branding }
  | { kind: 'notConfigured'; status: number; message: string }
  | { kind: 'forbidden'; status: 403; message: string }
  | { kind: 'closed'; status: 410; message: string }
  | { kind: 'unavailable'; status: 503 }
  | { kind: 'unresolved' };

export const CUSTOM_PAGE_BY_DOMAIN = '/base/BaseCustomPage/queryByTopDomain';

export function queryByTopDomain(topDomain: string): Promise<Branding> {
  return get<Branding>(CUSTOM_PAGE_BY_DOMAIN, { topDomain }, { handleErrors: false });
}
