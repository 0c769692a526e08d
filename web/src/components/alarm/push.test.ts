import { describe, expect, it } from 'vitest';
import { levelTimesRise } from './push';

describe('levelTimesRise', () => {
  it('accepts strictly rising minutes', () => {
    expect(levelTimesRise([0])).toBe(true);
    expect(levelTimesRise([0, 10, 30])).toBe(true);
  });

  it('refuses equal or falling minutes', () => {
    expect(levelTimesRise([10, 10])).toBe(false);
    expect(levelTimesRise([0, 30, 20])).toBe(false);
  });
});
