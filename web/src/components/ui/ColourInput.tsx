import { Input } from 'antd';
import { COLOUR_PATTERN } from '@/lib/formRules';

/** #RRGGBB typed, or picked with the browser's colour picker. */
export function ColourInput({
  value,
  onChange,
  id,
  testId,
}: {
  value?: string;
  onChange?: (value: string) => void;
  id?: string;
  testId?: string;
}) {
  const valid = value && COLOUR_PATTERN.test(value) ? value : '#000000';
  return (
    <Input
      id={id}
      value={value}
      maxLength={7}
      onChange={(e) => onChange?.(e.target.value.trim())}
      data-testid={testId}
      addonBefore={
        <input
          type="color"
          aria-label="colour"
          value={valid.toLowerCase()}
          onChange={(e) => onChange?.(e.target.value)}
          style={{ width: 24, height: 20, padding: 0, border: 0, background: 'none' }}
        />
      }
    />
  );
}
