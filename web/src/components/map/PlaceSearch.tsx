import { AutoComplete } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import { searchPlaces, type Place } from './places';

/**
 * Find a place without a map key or network: provinces and major cities shipped with the web
 * (places.ts), in either language. Choosing one hands its position to the map.
 */
export function PlaceSearch({
  onFound,
  placeholder,
  testId = 'place-search',
  width = 220,
}: {
  onFound: (place: Place) => void;
  placeholder: string;
  testId?: string;
  width?: number;
}) {
  const { i18n } = useTranslation();
  const [query, setQuery] = useState('');
  const english = i18n.language?.startsWith('en');
  const found = useMemo(() => searchPlaces(query), [query]);
  const name = (place: Place) => (english ? place.en : place.zh);
  return (
    <AutoComplete
      value={query}
      style={{ width }}
      placeholder={placeholder}
      allowClear
      onSearch={setQuery}
      onChange={(value) => setQuery(value ?? '')}
      options={found.map((place, index) => ({
        value: String(index),
        label: `${name(place)} (${place.lat.toFixed(2)}, ${place.lng.toFixed(2)})`,
      }))}
      onSelect={(value: string) => {
        const place = found[Number(value)];
        if (!place) return;
        setQuery(name(place));
        onFound(place);
      }}
      data-testid={testId}
    />
  );
}
