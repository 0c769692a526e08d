import { describe, expect, it } from 'vitest';
import { PLACES, searchPlaces } from './places';

describe('searchPlaces (the offline place search)', () => {
  it('finds provinces and cities by Chinese or English name, ignoring case and spaces', () => {
    expect(searchPlaces('苏州')[0].en).toBe('Suzhou');
    expect(searchPlaces('  suZHou ')[0].zh).toBe('苏州');
    expect(searchPlaces('江苏')[0]).toMatchObject({ kind: 'province', en: 'Jiangsu' });
    expect(searchPlaces('hong kong').map((p) => p.kind)).toEqual(['province', 'city']);
    expect(searchPlaces('')).toEqual([]);
    expect(searchPlaces('nowhere at all')).toEqual([]);
  });

  it('has every one of the 34 provincial-level divisions, with coordinates in range', () => {
    expect(PLACES.filter((p) => p.kind === 'province')).toHaveLength(34);
    for (const place of PLACES) {
      expect(Math.abs(place.lat)).toBeLessThanOrEqual(90);
      expect(Math.abs(place.lng)).toBeLessThanOrEqual(180);
    }
  });
});
