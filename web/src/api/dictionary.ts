import { get } from './client';

/** A time zone of the dictionary: IANA name, label in the caller's language, minutes east of UTC. */
export interface TimeZoneOption {
  value: string;
  label: string;
  offset: number;
}

/** GET /base/BaseDict/queryTimeZoneByType (business-domain section 7): every time-zone select uses it. */
export function queryTimeZoneByType(type: 'all' | 'common' = 'all'): Promise<TimeZoneOption[]> {
  return get<TimeZoneOption[]>('/base/BaseDict/queryTimeZoneByType', { type });
}
