/** Quick query limits (business spec: device GUID digits only, max 20; tracking numbers max 100). */
export const GUID_MAX_LENGTH = 20;
export const TRACKING_MAX_LENGTH = 100;

export type QuickQueryType = 'guid' | 'tracking';

/** Where a complete ID is looked up: the device quick query or the waybill page. */
export function quickQueryTarget(
  type: QuickQueryType,
  id: string,
): { pathname: string; query: Record<string, string> } {
  return type === 'guid'
    ? { pathname: '/quick/query', query: { guid: id } }
    : { pathname: '/pcQuick/waybill', query: { id } };
}
