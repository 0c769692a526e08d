/** When a calibration order can be paid online, and the pages paying it. */
import { isCancelled, STATUS, type ApplicationDetail } from '@/api/calibration';

/** The customer pays a submitted order that is not paid yet and has no cancellation request waiting. */
export function canPay(
  order: Pick<ApplicationDetail, 'owner' | 'calibrationStatus' | 'cancelRequested' | 'payment'>,
  admin = false,
): boolean {
  if (admin || !order.owner || order.cancelRequested || isCancelled(order.calibrationStatus)) return false;
  return order.calibrationStatus === STATUS.submitted && order.payment?.payStatus !== 'paid';
}

/** The order's own page for the layout it was paid from. */
export function orderPath(applicationId: number, mobile: boolean): string {
  return `${mobile ? '/mobile' : ''}/calibration/order/${applicationId}`;
}

/** The phone pays on the payment area's page, which brings the payer back to the order. */
export function mobilePayPath(orderCode: string, back: string): string {
  return `/mobilePay/pay?${new URLSearchParams({ orderCode, back }).toString()}`;
}
