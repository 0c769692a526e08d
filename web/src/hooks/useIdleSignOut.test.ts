import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getIdleLimitSeconds, recordIdleLimit } from '@/api/idle';
import { IDLE_CHECK_EVERY_MS, watchIdle } from './useIdleSignOut';

describe('FDA idle sign-out in the browser', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('signs out once after the limit without input, and input postpones it', () => {
    const target = new EventTarget();
    const onIdle = vi.fn();
    watchIdle(target, 60, onIdle, () => Date.now());
    vi.advanceTimersByTime(50_000);
    target.dispatchEvent(new Event('keydown'));
    vi.advanceTimersByTime(50_000);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(10_000 + IDLE_CHECK_EVERY_MS);
    expect(onIdle).toHaveBeenCalledExactlyOnceWith(1);
    vi.advanceTimersByTime(120_000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('stopping the watch stops it', () => {
    const onIdle = vi.fn();
    const stop = watchIdle(new EventTarget(), 60, onIdle, () => Date.now());
    stop();
    vi.advanceTimersByTime(600_000);
    expect(onIdle).not.toHaveBeenCalled();
  });

  it('the limit comes from the header and goes with it', () => {
    recordIdleLimit('900');
    expect(getIdleLimitSeconds()).toBe(900);
    recordIdleLimit(null);
    expect(getIdleLimitSeconds()).toBeNull();
    recordIdleLimit('nonsense');
    expect(getIdleLimitSeconds()).toBeNull();
  });
});
