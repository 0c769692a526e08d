/** Service packages, orders, payments, invoices, coupons and recharge cards (api/billing). Amounts are integer cents. */
import type { Page } from '@/components/ui/table';
import { del, get, getBlob, post, put } from './client';
import { quietReadKey, readKey } from './read';

const B = '/billing';
const P = '/payment';

export interface PriceRow {
  months: number;
  serviceFee: number;
  dataFee: number;
  discount: number;
  recommended?: boolean;
}

export interface ServiceLevel {
  levelId?: number | null;
  levelName: string;
  serviceItems: string[];
  prices: PriceRow[];
  free?: { timeLength: number; smsCount: number; voiceCount: number } | null;
}

export interface PackageInput {
  packageName: string;
  packageCode: string;
  status: boolean;
  currency: string;
  deviceTypeIds: number[];
  levels: ServiceLevel[];
}

export interface ServicePackage extends PackageInput {
  id: number;
  enableTime: string | null;
  gmtCreate: string;
}

export interface MessagePack {
  id: number;
  kind: 'sms' | 'voice';
  name: string;
  count: number;
  fee: number;
  currency: string;
  discount: number;
}

export type PayStatus = 'unpaid' | 'paid' | 'refunded' | 'closed';

export interface Order {
  id: number;
  orderCode: string;
  packageName: string | null;
  levelName: string | null;
  months: number;
  freeDays: number;
  smsCount: number;
  voiceCount: number;
  currency: string;
  orderFee: number;
  payFee: number;
  lines: { item: string; name?: string; months?: number; unit: number; unitDue: number; qty: number }[];
  payStatus: PayStatus;
  payType: string | null;
  applyFlag: boolean;
  invoiceStatus: 'none' | 'requested' | 'issued';
  gmtCreate: string;
  payTime: string | null;
  refundTime: string | null;
  description: string | null;
  devices: { deviceId: number; deviceGuid: string; expiresBefore: string | null; expiresAfter: string | null }[];
  /** What the order pays for: device service, or another area's object (a calibration application). */
  purpose: 'service' | 'calibration';
  subjectId: number | null;
  /** Where the payer goes back to after paying (a path of this site). */
  returnPath: string;
  accountId?: number;
}

export interface OrderInput {
  deviceIds: number[];
  packageId?: number | null;
  levelId?: number | null;
  months?: number | null;
  free?: boolean;
  smsPackId?: number | null;
  voicePackId?: number | null;
  couponCode?: string | null;
  applyFlag?: boolean;
}

export interface Quote {
  orderFee: number;
  payFee: number;
  currency: string;
  lines: Order['lines'];
}

/** The signed parameters of WeixinJSBridge's getBrandWCPayRequest (signed by the api). */
export interface JsapiParams {
  appId: string;
  timeStamp: string;
  nonceStr: string;
  package: string;
  signType: string;
  paySign: string;
}

export interface Payment {
  orderCode: string;
  payFee: number;
  codeUrl?: string | null;
  h5Url?: string | null;
  jsapi?: JsapiParams | null;
  payUrl?: string | null;
  approveUrl?: string | null;
}

export interface Receipt {
  order: Order;
  seller: { name: string; address?: string | null; taxId?: string | null };
  buyer: { name: string; company?: string | null; taxId?: string | null; invoiceTitle?: string | null };
  /** No tax rate is configured: the total is as paid, tax included (cents in the order's currency). */
  tax: { included: boolean; currency: string; total: number };
}

export interface InvoiceInfo {
  id: number;
  billMode: 'personal' | 'enterprise';
  billName: string;
  companyName?: string | null;
  taxNumber?: string | null;
  personalName?: string | null;
  address?: string | null;
  bankDeposit?: string | null;
  receiver?: string | null;
  isDefault: boolean;
}

export interface InvoiceRequest {
  id: number;
  info: Record<string, string | null>;
  orderIds: number[];
  amount: number;
  status: 'requested' | 'issued';
  gmtCreate: string;
  issuedTime: string | null;
}

export interface Coupon {
  id: number;
  prefix: string;
  code: string;
  fee: number;
  validFrom: string;
  validTo: string;
  remark: string | null;
  used: boolean;
}

export interface RechargeCard {
  id: number;
  prefix: string;
  code: string;
  packageId: number;
  levelId: number;
  months: number;
  validTo: string;
  remark: string | null;
  used: boolean;
}

export interface OfflinePurchase {
  id: number;
  deviceGuid: string;
  packageId: number | null;
  levelId: number;
  months: number;
  contract: string | null;
  state: 'recharged' | 'not_recharged' | 'failed';
  reason: string | null;
  gmtCreate: string;
}

export interface OrderReport {
  total: number;
  orders: number;
  byDay: { day: string; amount: number }[];
  byPackage: { package: string; amount: number }[];
  byPayType: { payType: string; amount: number }[];
}

type Paged = { start: number; pageSize: number };

/** Cents as an amount with two decimals (never floating-point arithmetic on money). */
export function money(cents: number, currency = 'CNY'): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const symbol = currency === 'CNY' ? '¥' : currency === 'USD' ? '$' : `${currency} `;
  return `${sign}${symbol}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

// catalogue
export const packagePageKey = (args: Paged & { packageName?: string }) =>
  readKey(`${B}/ServicePackage/page`, args, 'post');
export const insertPackage = (input: PackageInput) => post<ServicePackage>(`${B}/ServicePackage/insert`, input);
export const updatePackage = (input: PackageInput & { id: number }) =>
  put<ServicePackage>(`${B}/ServicePackage/update`, input);
export const deletePackage = (id: number) => del<null>(`${B}/ServicePackage/delete/${id}`);
export const packsKey = () => readKey(`${B}/MessagePack/list`);
export const insertPack = (input: Omit<MessagePack, 'id'>) => post<MessagePack>(`${B}/MessagePack/insert`, input);
export const deletePack = (id: number) => del<null>(`${B}/MessagePack/delete/${id}`);
export const packagesForDevices = (deviceIds: number[]) =>
  post<ServicePackage[]>(`${B}/ServicePackage/forDevices`, { deviceIds });

// orders and payment
export const priceOrder = (input: OrderInput) => post<Quote>(`${B}/Order/price`, input);
export const insertOrder = (input: OrderInput) => post<Order>(`${B}/Order/insert`, input);
export const orderPageKey = (args: Paged & { orderCode?: string; payStatus?: PayStatus }) =>
  readKey(`${B}/Order/page`, args, 'post');
export const payOrderKey = (orderCode: string) => readKey(`${P}/PayOrder/get`, { orderCode });
/** The order read by the public pay pages and the receipt: they show its failure themselves (signed out: a sign-in link, never a sign-out notice). */
export const publicPayOrderKey = (orderCode: string) => quietReadKey(`${P}/PayOrder/get`, { orderCode });
export const wechatPay = (orderCode: string, tradeType: 'native' | 'jsapi' | 'h5' = 'native', openId?: string) =>
  get<Payment>(`${P}/payment/wechatPay`, { orderCode, tradeType, openId });
export const aliPay = (orderCode: string, mode: 'page' | 'wap' = 'page') =>
  get<Payment>(`${P}/payment/aliPay`, { orderCode, mode });
export const wechatAuthorize = (orderCode: string) =>
  get<{ authorizeUrl: string }>(`${P}/payment/wechatAuthorize`, { orderCode });
export const wechatOpenId = (code: string) => get<{ openId: string }>(`${P}/payment/getOpenId`, { code });
export const payPal = (orderCode: string) => get<Payment>(`${P}/payment/payPal`, { orderCode });
export const confirmPay = (orderCode: string, token?: string) =>
  get<Order>(`${P}/PayOrder/confirmPay`, { orderCode, token });
/** The receipt: the order with its seller, buyer and tax (read quietly, as the public order pages). */
export const receiptKey = (orderCode: string) => quietReadKey(`${P}/PayOrder/receipt`, { orderCode });

// invoices, cards
export const invoiceInfosKey = () => readKey(`${B}/InvoiceInfo/list`);
export const insertInvoiceInfo = (input: Omit<InvoiceInfo, 'id'>) =>
  post<InvoiceInfo>(`${B}/InvoiceInfo/insert`, input);
export const requestInvoice = (infoId: number, orderIds: number[]) =>
  post<InvoiceRequest>(`${B}/InvoiceRequest/insert`, { infoId, orderIds });
export const invoiceRequestPageKey = (args: Paged) => readKey(`${B}/InvoiceRequest/page`, args, 'post');
export const redeemCard = (code: string, deviceId: number) =>
  post<Order>(`${B}/RechargeCard/redeem`, { code, deviceId });

// operators
export const adminOrderPageKey = (args: Paged & { orderCode?: string; payStatus?: PayStatus }) =>
  readKey(`${B}/OrderAdmin/page`, args, 'post');
export const orderReportKey = (startTime: string, endTime: string) =>
  readKey(`${B}/OrderAdmin/report`, { startTime, endTime });
export const refundOrder = (id: number) => put<Order>(`${B}/OrderAdmin/refund`, { id });
export const confirmOffline = (id: number, reference: string) =>
  put<Order>(`${B}/OrderAdmin/confirmOffline`, { id, reference });
export const invoiceAdminPageKey = (args: Paged & { status?: string }) =>
  readKey(`${B}/InvoiceAdmin/page`, args, 'post');
export const issueInvoice = (id: number) => put<InvoiceRequest>(`${B}/InvoiceAdmin/issue/${id}`);
export const couponPageKey = (args: Paged) => readKey(`${B}/Coupon/page`, args, 'post');
export const generateCoupons = (input: {
  prefix: string;
  fee: number;
  count: number;
  validFrom: string;
  validTo: string;
  remark?: string;
}) => post<Coupon[]>(`${B}/Coupon/generate`, input);
export const cardPageKey = (args: Paged) => readKey(`${B}/RechargeCard/page`, args, 'post');
export const generateCards = (input: {
  prefix: string;
  packageId: number;
  levelId: number;
  months: number;
  count: number;
  validTo: string;
  remark?: string;
}) => post<RechargeCard[]>(`${B}/RechargeCard/generate`, input);
export const offlinePageKey = (args: Paged & { state?: string }) => readKey(`${B}/OfflinePurchase/page`, args, 'post');
export const insertOffline = (input: {
  deviceGuid: string;
  packageId: number;
  levelId: number;
  months: number;
  contract?: string;
}) => post<OfflinePurchase>(`${B}/OfflinePurchase/insert`, input);
export const retryOffline = (id: number) => put<OfflinePurchase>(`${B}/OfflinePurchase/retry/${id}`);
export type { Page };
export const exportOrders = (args: { orderCode?: string; payStatus?: PayStatus }) =>
  getBlob(`${B}/OrderAdmin/export`, args);
export const deviceTypesKey = () => readKey(`${B}/ServicePackage/deviceTypes`);
export const activitiesKey = () => readKey(`${B}/Activity/list`);
/** A discount on one package for a window, public or for chosen accounts (operators). */
export interface Activity {
  id: number;
  packageId: number;
  name: string;
  startTime: string;
  endTime: string;
  discount: number;
  status: boolean;
  directional: boolean;
  accountIds: number[];
}
export type ActivityInput = Omit<Activity, 'id'> & { id?: number };
export const saveActivity = (input: ActivityInput) =>
  input.id ? put<Activity>(`${B}/Activity/update`, input) : post<Activity>(`${B}/Activity/insert`, input);
export const deleteActivity = (id: number) => del<null>(`${B}/Activity/delete/${id}`);
export type MerchantProvider = 'wechat' | 'alipay' | 'paypal';
/** A site's merchant account: which settings are stored (their values never come back). */
export interface Merchant {
  provider: MerchantProvider;
  enabled: boolean;
  configured: string[];
}
export const merchantsKey = () => readKey(`${B}/PaymentMerchant/list`);
export const saveMerchant = (input: { provider: MerchantProvider; enabled: boolean; config: Record<string, string> }) =>
  put<Merchant>(`${B}/PaymentMerchant/save`, input);
export const packagesForDevicesKey = (deviceIds: number[]) =>
  readKey(`${B}/ServicePackage/forDevices`, { deviceIds }, 'post');
export const priceKey = (input: OrderInput) => readKey(`${B}/Order/price`, input, 'post');
