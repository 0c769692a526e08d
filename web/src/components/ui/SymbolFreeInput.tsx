import { Input } from 'antd';
import type { ChangeEvent } from 'react';
import { stripSymbols } from '@/utils/symbols';

interface SymbolFreeInputProps {
  value?: string;
  onChange?: (value: string) => void;
  maxLength?: number;
  textarea?: boolean;
  disabled?: boolean;
  placeholder?: string;
}

/**
 * An input marked to clear emoji and special symbols (spec section 5): the value is cleaned on key
 * release, on blur and when a text composition (an input method) ends, not while composing.
 */
export function SymbolFreeInput({ value, onChange, textarea, ...rest }: SymbolFreeInputProps) {
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
  return textarea ? <Input.TextArea {...rest} {...handlers} autoSize={{ minRows: 3 }} /> : <Input {...rest} {...handlers} />;
}
