import { useTranslation } from 'next-i18next/pages';
import useSWR from 'swr';
import { queryTimeZoneByType, type TimeZoneOption } from '@/api/dictionary';

/**
 * The time-zone dictionary for a select (labels in the page's language). `current` is kept as an
 * option while the list loads or if the dictionary lacks it, so a saved value always shows.
 */
export function useTimeZones(current?: string | null): { options: TimeZoneOption[]; loading: boolean } {
  const { i18n } = useTranslation();
  const { data, isLoading } = useSWR(['time-zones', i18n.language], () => queryTimeZoneByType('all'), { revalidateOnFocus: false });
  // The IANA name stays searchable whatever the language of the label.
  const options = (data ?? []).map((zone) => ({ ...zone, label: `${zone.label} · ${zone.value}` }));
  if (current && !options.some((zone) => zone.value === current)) return { options: [{ value: current, label: current, offset: 0 }, ...options], loading: isLoading };
  return { options, loading: isLoading };
}
