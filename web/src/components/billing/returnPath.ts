/** Where the payment area's pages send the payer back to. */
import { safeRedirect } from '@/utils/redirect';
import { getItem, setItem } from '@/utils/storage';

/**
 * Where the pay pages go back to: the page's ?back= when it is a path of this site, else the order's
 * own (the server's returnPath), else the recharge page.
 */
export function returnPathOf(back: unknown, order?: { returnPath?: string | null } | null): string {
  return safeRedirect(back, safeRedirect(order?.returnPath ?? undefined, '/consumer/recharge'));
}

const storageKey = (orderCode: string) => `pay.back.${orderCode}`;

/**
 * The pay page's ?back=, kept for its order in this tab: a provider's cashier (WeChat H5, Alipay wap,
 * PayPal) sends the payer to the success page with the order number only, and the phone's calibration
 * order page must not become the desktop one on the way.
 */
export function rememberReturn(orderCode: string | null, back: unknown): void {
  if (orderCode && typeof back === 'string') setItem(storageKey(orderCode), back, undefined, 'tab');
}

/** Where the payer goes back to after a provider's cashier: ?back=, else what the pay page kept. */
export function payerReturnPath(
  back: unknown,
  order?: { orderCode?: string; returnPath?: string | null } | null,
): string {
  if (typeof back === 'string' || !order?.orderCode) return returnPathOf(back, order);
  return returnPathOf(getItem<string>(storageKey(order.orderCode), 'tab'), order);
}
