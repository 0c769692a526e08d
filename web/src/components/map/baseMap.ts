/**
 * The offline base map: country outlines shipped with the web (public/map/countries.json, Natural Earth,
 * public domain; scripts/base-map.py), loaded once and only when a map without tiles is drawn (no map key,
 * or no network), so a fence or a storage can be placed with the land, the coast and the borders in view.
 */
import { useEffect, useState } from 'react';
import type { LatLng } from './projection';

export interface Outline {
  name: string;
  /** Outer rings, each closed. */
  rings: LatLng[][];
  /** [south, west, north, east] of all its rings. */
  box: [number, number, number, number];
}

interface Collection {
  features: { properties: { name: string }; geometry: { coordinates: number[][][][] } }[];
}

export const BASE_MAP_URL = '/map/countries.json';

let loading: Promise<Outline[]> | null = null;

export function outlinesOf(collection: Collection): Outline[] {
  return collection.features.map((feature) => {
    const rings = feature.geometry.coordinates.map((polygon) => polygon[0].map(([lng, lat]) => ({ lat, lng })));
    const all = rings.flat();
    const lats = all.map((p) => p.lat);
    const lngs = all.map((p) => p.lng);
    return {
      name: feature.properties.name,
      rings,
      box: [Math.min(...lats), Math.min(...lngs), Math.max(...lats), Math.max(...lngs)],
    };
  });
}

export function loadBaseMap(): Promise<Outline[]> {
  loading ??= fetch(BASE_MAP_URL)
    .then((answer) => (answer.ok ? (answer.json() as Promise<Collection>) : { features: [] }))
    .then(outlinesOf)
    .catch(() => {
      loading = null; // tried again next time
      return [];
    });
  return loading;
}

/** The outlines once loaded (empty until then, or when they cannot be loaded: the map still works). */
export function useBaseMap(): Outline[] {
  const [outlines, setOutlines] = useState<Outline[]>([]);
  useEffect(() => {
    let live = true;
    void loadBaseMap().then((loaded) => {
      if (live) setOutlines(loaded);
    });
    return () => {
      live = false;
    };
  }, []);
  return outlines;
}

/** The outlines that reach into a view ([south, west, north, east]). */
export function outlinesIn(outlines: Outline[], [south, west, north, east]: [number, number, number, number]) {
  return outlines.filter(({ box }) => box[0] <= north && box[2] >= south && box[1] <= east && box[3] >= west);
}
