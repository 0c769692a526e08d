/** Where the payment area's pages send the payer back to. */
import { safeRedirect } from '@/utils/redirect';

/**
 * Where the pay pages go back to: the page's ?back= when it is a path of this site, else the order's
 * own (the server's returnPath), else the recharge page.
 */
export function returnPathOf(back: unknown, order?: { returnPath?: string | null } | null): string {
  return safeRedirect(back, safeRedirect(order?.returnPath ?? undefined, '/consumer/recharge'));
}
