import { describe, expect, it } from 'vitest';
import type { DeviceParam } from '@/api/device';
import { correctedBy, overdueBands } from './helpers';

// Issue 48: the chart shades the spans a shown probe's calibration was overdue, once per span.
describe('overdue bands', () => {
  const params = [{ probeId: 1 }, { probeId: 2 }] as DeviceParam[];

  it('merges the shown probes overlapping spans and ignores probes not shown', () => {
    const overdue = {
      '1': [{ start: 100, end: 200 }],
      '2': [
        { start: 150, end: 300 },
        { start: 500, end: 600 },
      ],
      '3': [{ start: 0, end: 1000 }],
    };
    expect(overdueBands(params, overdue)).toEqual([
      { start: 100, end: 300 },
      { start: 500, end: 600 },
    ]);
  });

  it('shades nothing without spans (a probe without a certificate is never overdue)', () => {
    expect(overdueBands(params, undefined)).toEqual([]);
    expect(overdueBands(params, { '1': [] })).toEqual([]);
  });
});

// Issue 48: the chart's "corrected" label names each certificate whose correction its values carry once.
describe('corrected by', () => {
  it('lists the certificates of every sensor once, none without corrections', () => {
    const corrections = {
      '1': [
        { start: 0, end: 10, certificate: 'EXT-A' },
        { start: 10, end: 20, certificate: 'CAL-2' },
      ],
      '2': [{ start: 0, end: 20, certificate: 'EXT-A' }],
    };
    expect(correctedBy(corrections)).toBe('EXT-A, CAL-2');
    expect(correctedBy(undefined)).toBe('');
    expect(correctedBy({ '1': [] })).toBe('');
  });
});
