import { describe, expect, it, vi } from 'vitest';
import { hasMorePages, NEAR_BOTTOM_MARGIN, watchNearBottom } from './infinite';

/** An IntersectionObserver whose intersections the test plays. */
function fakeObserver() {
  const made: {
    callback: IntersectionObserverCallback;
    options?: IntersectionObserverInit;
    disconnected: boolean;
    targets: Element[];
  }[] = [];
  class Fake {
    record: (typeof made)[number];
    constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
      this.record = { callback, options, disconnected: false, targets: [] };
      made.push(this.record);
    }
    observe(target: Element) {
      this.record.targets.push(target);
    }
    disconnect() {
      this.record.disconnected = true;
    }
  }
  const play = (isIntersecting: boolean) =>
    made[0].callback([{ isIntersecting } as IntersectionObserverEntry], made[0] as unknown as IntersectionObserver);
  return { Observer: Fake as unknown as typeof IntersectionObserver, made, play };
}

describe('infinite lists (spec 9: more within 50 px of the bottom)', () => {
  it('knows when later pages exist', () => {
    expect(hasMorePages(1, 10, 10)).toBe(false);
    expect(hasMorePages(1, 10, 11)).toBe(true);
    expect(hasMorePages(2, 10, 11)).toBe(false);
    expect(hasMorePages(1, 10, 0)).toBe(false);
  });

  it('asks for the next page once, when the end comes within 50 px', () => {
    const { Observer, made, play } = fakeObserver();
    const onNear = vi.fn();
    const end = {} as Element;
    watchNearBottom(end, onNear, Observer);
    expect(made[0].options?.rootMargin).toBe(NEAR_BOTTOM_MARGIN);
    expect(NEAR_BOTTOM_MARGIN).toBe('0px 0px 50px 0px');
    expect(made[0].targets).toEqual([end]);
    play(false);
    expect(onNear).not.toHaveBeenCalled();
    play(true);
    play(true);
    expect(onNear).toHaveBeenCalledTimes(1);
    expect(made[0].disconnected).toBe(true);
  });

  it('stops watching when the list goes away', () => {
    const { Observer, made } = fakeObserver();
    const stop = watchNearBottom({} as Element, vi.fn(), Observer);
    stop();
    expect(made[0].disconnected).toBe(true);
  });
});
