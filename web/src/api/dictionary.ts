import { readKey } from './read';

/** A time zone of the dictionary: IANA name, label in the caller's language, minutes east of UTC. */
export interface TimeZoneOption {
  value: string;
  label: string;
  offset: number;
}

/** GET /base/BaseDict/queryTimeZoneByType (business-domain section 7): every time-zone select uses it. */
export const timeZonesKey = (type: 'all' | 'common' = 'all') => readKey('/base/BaseDict/queryTimeZoneByType', { type });
