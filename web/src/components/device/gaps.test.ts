import { describe, expect, it } from 'vitest';
import type { ChartPoint } from '@/api/device';
import { sensorSeries } from './helpers';

// The api puts one point with v = null inside every gap (no data for longer than three logging
// intervals): neither the line nor the min / max band may be drawn across it.
describe('gaps are drawn as gaps', () => {
  const points: ChartPoint[] = [
    { t: 0, v: 5, min: 4, max: 6 },
    { t: 60_000, v: 5.5, min: 5, max: 6 },
    { t: 1_000_000, v: null, min: null, max: null },
    { t: 2_000_000, v: 4, min: 3, max: 5 },
  ];

  it('breaks the raw line at the gap marker', () => {
    const [line] = sensorSeries('T', points, false, 'band');
    expect(line.data.map((point) => point.y)).toEqual([5, 5.5, null, 4]);
  });

  it('breaks the bucket band too', () => {
    const [band, line] = sensorSeries('T', points, true, 'band');
    expect(band.data.map((point) => point.y)).toEqual([[4, 6], [5, 6], null, [3, 5]]);
    expect(line.data[2].y).toBeNull();
  });
});
