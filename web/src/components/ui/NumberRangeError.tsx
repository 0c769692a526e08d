import { Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { inRange, rangeMessage } from './rangeRules';

/**
 * The refusal of a standalone number input (one outside a form) whose value is out of range: such an
 * input gets no min/max either (antd would clamp silently, issue 47); it shows status="error" and this
 * message, and its action stays disabled until the value is in range.
 */
export function NumberRangeError({ value, min, max }: { value: unknown; min?: number; max?: number }) {
  const { t } = useTranslation('shell');
  if (inRange(value, min, max)) return null;
  return (
    <Typography.Text type="danger" data-testid="number-range-error">
      {rangeMessage(t, min, max)}
    </Typography.Text>
  );
}
