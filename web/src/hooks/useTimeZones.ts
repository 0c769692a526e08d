import { timeZonesKey, type TimeZoneOption } from '@/api/dictionary';
import { useRead } from './useRead';

/**
 * The time-zone dictionary for a select (labels in the page's language: switching language reloads
 * the page, so the cache never holds another language's labels). `current` is kept as an option
 * while the list loads or if the dictionary lacks it, so a saved value always shows.
 */
export function useTimeZones(current?: string | null): { options: TimeZoneOption[]; loading: boolean } {
  const { data, isLoading } = useRead<TimeZoneOption[]>(timeZonesKey('all'), { revalidateOnFocus: false });
  // The IANA name stays searchable whatever the language of the label.
  const options = (data ?? []).map((zone) => ({ ...zone, label: `${zone.label} · ${zone.value}` }));
  if (current && !options.some((zone) => zone.value === current))
    return { options: [{ value: current, label: current, offset: 0 }, ...options], loading: isLoading };
  return { options, loading: isLoading };
}
