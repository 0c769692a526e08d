import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowser } from '@/test/browser';
import { dismissNotice, isNoticeDismissed, noticeKey } from './noticeStore';

let storage: Map<string, string>;
beforeEach(() => {
  storage = stubBrowser();
});
afterEach(() => vi.unstubAllGlobals());

describe('notice "don\'t remind again" (spec 9)', () => {
  it('is remembered per account and notice under the namespace prefix', () => {
    expect(noticeKey(7, 3)).toBe('coldchain:notice:7:3');
    expect(isNoticeDismissed(7, 3)).toBe(false);
    dismissNotice(7, 3);
    expect(storage.get('coldchain:notice:7:3')).toBe('1');
    expect(isNoticeDismissed(7, 3)).toBe(true);
    expect(isNoticeDismissed(8, 3)).toBe(false);
    expect(isNoticeDismissed(7, 4)).toBe(false);
  });
});
