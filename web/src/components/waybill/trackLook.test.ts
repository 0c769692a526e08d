import { describe, expect, it } from 'vitest';
import type { TrackPoint, TrackStop, TrackTemplate } from '@/api/waybill';
import { initialChoice, lookOf, shownStops, STANDARD, standardLook, trackSegments } from './trackLook';

const COLORS = { upper: '#ff0000', lower: '#0000ff' };
const point = (lng: number, breach: TrackPoint['breach'] = null): TrackPoint => ({ ts: '', lat: 31, lng, breach });
const template = (changes: Partial<TrackTemplate> = {}): TrackTemplate => ({
  id: 1,
  name: 'Night',
  lineColor: '#00aa00',
  lineWidth: 5,
  stopMinutes: 10,
  colorByLimits: true,
  isDefault: false,
  ...changes,
});

describe('track segments', () => {
  it('splits the line where the temperature leaves and comes back, without a gap', () => {
    const track = [point(1), point(2), point(3, 'upper'), point(4, 'upper'), point(5), point(6, 'lower')];
    const segments = trackSegments(track, lookOf(template(), '#111111'), COLORS);
    expect(segments.map((s) => [s.color, s.points.map((p) => p.lng)])).toEqual([
      ['#00aa00', [1, 2, 3]],
      ['#ff0000', [3, 4, 5]],
      ['#00aa00', [5, 6]],
      ['#0000ff', [6]],
    ]);
  });

  it('draws one line in the template colour when excursions are not coloured', () => {
    const track = [point(1), point(2, 'upper'), point(3)];
    const segments = trackSegments(track, lookOf(template({ colorByLimits: false }), '#111111'), COLORS);
    expect(segments).toEqual([{ color: '#00aa00', breach: null, points: track.map(({ lat, lng }) => ({ lat, lng })) }]);
  });

  it('has nothing to draw for an empty track', () => {
    expect(trackSegments([], standardLook('#111111'), COLORS)).toEqual([]);
  });
});

describe('stops and the first choice', () => {
  const stops: TrackStop[] = [5, 12, 30].map((minutes) => ({ lat: 31, lng: 121, startedAt: '', endedAt: '', minutes }));

  it('marks only stops of at least the template minutes, none when the template turns them off', () => {
    expect(shownStops(stops, lookOf(template({ stopMinutes: 12 }), '#111111')).map((s) => s.minutes)).toEqual([12, 30]);
    expect(shownStops(stops, lookOf(template({ stopMinutes: 0 }), '#111111'))).toEqual([]);
  });

  it('marks every stop without a template (no template needed to see where the truck stood)', () => {
    expect(shownStops(stops, standardLook('#111111')).map((s) => s.minutes)).toEqual([5, 12, 30]);
    expect(shownStops(stops, lookOf(undefined, '#111111')).map((s) => s.minutes)).toEqual([5, 12, 30]);
  });

  it("starts from the account's default template, else the standard look", () => {
    expect(initialChoice([template({ id: 3 }), template({ id: 4, isDefault: true })])).toBe(4);
    expect(initialChoice([template()])).toBe(STANDARD);
  });
});
