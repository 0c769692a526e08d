/**
 * The offline map's projection: Web Mercator fitted to the points' bounds inside a box, so device
 * positions and a track can be drawn as SVG without map tiles (no key configured, or offline).
 */
export interface LatLng {
  lat: number;
  lng: number;
}

export interface Projection {
  /** SVG x / y of a position. */
  project: (point: LatLng) => { x: number; y: number };
  /** Graticule lines (whole steps of latitude and longitude) inside the box. */
  latLines: number[];
  lngLines: number[];
}

const MIN_SPAN = 0.02;

function mercatorY(lat: number): number {
  const clamped = Math.max(-85, Math.min(85, lat));
  return Math.log(Math.tan(Math.PI / 4 + (clamped * Math.PI) / 360));
}

function niceStep(span: number): number {
  const raw = span / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const scaled = raw / power;
  return (scaled >= 5 ? 5 : scaled >= 2 ? 2 : 1) * power;
}

function linesIn(low: number, high: number): number[] {
  const step = niceStep(high - low);
  const lines: number[] = [];
  for (let value = Math.ceil(low / step) * step; value <= high; value += step) lines.push(Number(value.toFixed(6)));
  return lines;
}

/** A projection of `points` into a width x height box with `padding` px kept free on every side. */
export function fitProjection(points: LatLng[], width: number, height: number, padding = 32): Projection {
  const lats = points.map((point) => point.lat);
  const lngs = points.map((point) => point.lng);
  let [south, north] = lats.length ? [Math.min(...lats), Math.max(...lats)] : [-60, 75];
  let [west, east] = lngs.length ? [Math.min(...lngs), Math.max(...lngs)] : [-170, 170];
  if (north - south < MIN_SPAN) [south, north] = [south - MIN_SPAN / 2, north + MIN_SPAN / 2];
  if (east - west < MIN_SPAN) [west, east] = [west - MIN_SPAN / 2, east + MIN_SPAN / 2];

  const x0 = (west * Math.PI) / 180;
  const x1 = (east * Math.PI) / 180;
  const y0 = mercatorY(south);
  const y1 = mercatorY(north);
  const innerW = Math.max(1, width - 2 * padding);
  const innerH = Math.max(1, height - 2 * padding);
  const scale = Math.min(innerW / (x1 - x0), innerH / (y1 - y0));
  const offsetX = padding + (innerW - (x1 - x0) * scale) / 2;
  const offsetY = padding + (innerH - (y1 - y0) * scale) / 2;
  const project = ({ lat, lng }: LatLng) => ({
    x: offsetX + ((lng * Math.PI) / 180 - x0) * scale,
    y: offsetY + (y1 - mercatorY(lat)) * scale,
  });
  // The box may show more than the bounds (aspect ratio): graticule over what is visible.
  const visibleWest = ((x0 - offsetX / scale) * 180) / Math.PI;
  const visibleEast = ((x0 + (width - offsetX) / scale) * 180) / Math.PI;
  const latAt = (y: number) => (Math.atan(Math.sinh(y1 - (y - offsetY) / scale)) * 180) / Math.PI;
  return { project, latLines: linesIn(latAt(height), latAt(0)), lngLines: linesIn(visibleWest, visibleEast) };
}

/** SVG path data of a track ("M x y L x y ..."), empty for fewer than two points. */
export function trackPath(points: LatLng[], projection: Projection): string {
  if (points.length < 2) return '';
  return points
    .map((point, index) => {
      const { x, y } = projection.project(point);
      return `${index ? 'L' : 'M'}${x.toFixed(1)} ${y.toFixed(1)}`;
    })
    .join(' ');
}
