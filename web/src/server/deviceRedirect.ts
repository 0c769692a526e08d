/** A phone, tablet or messaging-app browser (the mobile pages of spec 2.1). */
const MOBILE_AGENT = /Android|iPhone|iPad|iPod|Mobile|Windows Phone|MicroMessenger|HarmonyOS/i;

export function isMobileAgent(userAgent: string | undefined): boolean {
  return MOBILE_AGENT.test(userAgent ?? '');
}

/**
 * Spec 2.1: the PC waybill page opened on a mobile device goes to the mobile waybill path, the
 * mobile waybill list opened on a desktop goes to the PC one (the query, with the id, is kept).
 */
export function deviceRedirect(routeName: string, userAgent: string | undefined, resolvedUrl: string): string | null {
  const query = resolvedUrl.includes('?') ? resolvedUrl.slice(resolvedUrl.indexOf('?')) : '';
  const mobile = isMobileAgent(userAgent);
  if (routeName === 'pcQuick.waybill' && mobile) return `/mobileQuick/waybill${query}`;
  if (routeName === 'mobileQuick.waybill.list' && !mobile) return `/pcQuick/waybill${query}`;
  // The help centre: one article keeps its id on the phone page; otherwise the phone's list.
  if (routeName === 'help.center' && mobile)
    return /[?&]id=/.test(query) ? `/mobile/help/center${query}` : `/mobile/help/list${query}`;
  return null;
}
