import { STORAGE_PREFIX } from '@/api/constants';

/**
 * "Don't remind again" of the notice modal (spec section 9): remembered per account id and notice
 * id in localStorage, under the console's namespace prefix: `coldchain:notice:<accountId>:<noticeId>`.
 */
export const NOTICE_PREFIX = `${STORAGE_PREFIX}notice:`;

export function noticeKey(accountId: number, noticeId: number): string {
  return `${NOTICE_PREFIX}${accountId}:${noticeId}`;
}

function store(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function isNoticeDismissed(accountId: number, noticeId: number): boolean {
  return store()?.getItem(noticeKey(accountId, noticeId)) === '1';
}

export function dismissNotice(accountId: number, noticeId: number): void {
  try {
    store()?.setItem(noticeKey(accountId, noticeId), '1');
  } catch {
    // storage full or disabled: the notice shows again next time
  }
}
