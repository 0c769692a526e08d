import { Input } from 'antd';
import type { InputProps } from 'antd';
import type { ChangeEvent } from 'react';
import { stripSymbols } from '@/utils/symbols';

type SymbolFreeInputProps = Omit<InputProps, 'value' | 'onChange' | 'onKeyUp' | 'onBlur' | 'onCompositionEnd'> & {
  value?: string;
  onChange?: (value: string) => void;
  textarea?: boolean;
  /** Rows of the text area (it grows with its text from there). */
  rows?: number;
};

/**
 * An input marked to clear emoji and special symbols (spec section 5): the value is cleaned on key
 * release, on blur and when a text composition (an input method) ends, not while composing.
 */
export function SymbolFreeInput({ value, onChange, textarea, rows = 3, ...rest }: SymbolFreeInputProps) {
  const clean = (current: string) => {
    const stripped = stripSymbols(current);
    if (stripped !== current) onChange?.(stripped);
  };
  const handlers = {
    value,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange?.(event.target.value),
    onKeyUp: (event: { currentTarget: { value: string }; nativeEvent: { isComposing?: boolean } }) => {
      if (!event.nativeEvent.isComposing) clean(event.currentTarget.value);
    },
    onBlur: (event: { currentTarget: { value: string } }) => clean(event.currentTarget.value),
    onCompositionEnd: (event: { currentTarget: { value: string } }) => clean(event.currentTarget.value),
  };
  if (textarea) {
    const { maxLength, disabled, placeholder, id } = rest;
    const testId = (rest as Record<string, unknown>)['data-testid'] as string | undefined;
    return (
      <Input.TextArea
        {...{ maxLength, disabled, placeholder, id, 'data-testid': testId }}
        {...handlers}
        showCount={Boolean(maxLength)}
        autoSize={{ minRows: rows }}
      />
    );
  }
  return <Input {...rest} {...handlers} />;
}
