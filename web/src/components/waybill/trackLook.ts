/**
 * How a waybill's track is drawn (a map track template, or the standard look): the line split where
 * the temperature left or came back within the limits, and the stops long enough to mark. The stops
 * and the per-point excursions are the api's (api/waybill/track_marks.py); this only chooses.
 */
import type { Breach, TrackPoint, TrackStop, TrackTemplate } from '@/api/waybill';
import type { LatLng } from '@/components/map/projection';

export interface TrackLook {
  lineColor: string;
  lineWidth: number;
  stopMinutes: number;
  colorByLimits: boolean;
}

export interface TrackSegment {
  points: LatLng[];
  color: string;
  breach: Breach;
}

export const STANDARD = 'standard';

/** The shortest halt the api reports as a stop (api/waybill/track_marks.py MIN_STOP_MINUTES). */
export const MIN_STOP_MINUTES = 5;

/**
 * The look without a template (no template made yet, the public and shared pages): the theme's colour,
 * every stop the api found marked, excursions shown. Only a template can turn the stops off.
 */
export function standardLook(themeColor: string): TrackLook {
  return { lineColor: themeColor, lineWidth: 3, stopMinutes: MIN_STOP_MINUTES, colorByLimits: true };
}

export function lookOf(template: TrackTemplate | undefined, themeColor: string): TrackLook {
  return template
    ? {
        lineColor: template.lineColor,
        lineWidth: template.lineWidth,
        stopMinutes: template.stopMinutes,
        colorByLimits: template.colorByLimits,
      }
    : standardLook(themeColor);
}

/** The template chosen first: the account's default, else the standard look. */
export function initialChoice(templates: TrackTemplate[]): number | typeof STANDARD {
  return templates.find((template) => template.isDefault)?.id ?? STANDARD;
}

/**
 * The line in stretches of one colour. A stretch ends on the first point of the next one, so the
 * line stays unbroken where the colour changes.
 */
export function trackSegments(
  track: TrackPoint[],
  look: TrackLook,
  alarmColors: Record<'upper' | 'lower', string>,
): TrackSegment[] {
  const segments: TrackSegment[] = [];
  for (const point of track) {
    const breach = look.colorByLimits ? point.breach : null;
    const position = { lat: point.lat, lng: point.lng };
    const current = segments[segments.length - 1];
    if (current && current.breach === breach) {
      current.points.push(position);
      continue;
    }
    current?.points.push(position);
    segments.push({ points: [position], breach, color: breach ? alarmColors[breach] : look.lineColor });
  }
  return segments;
}

/** The stops of at least the template's minutes (none when it marks none). */
export function shownStops(stops: TrackStop[], look: TrackLook): TrackStop[] {
  return look.stopMinutes > 0 ? stops.filter((stop) => stop.minutes >= look.stopMinutes) : [];
}
