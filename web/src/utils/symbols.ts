/**
 * Emoji and special-symbol stripping for inputs marked to clear them (spec section 5; the input
 * calls it on key release, on blur and after text composition, see ui/SymbolFreeInput).
 *
 * Removed: pictographs and emoji with their modifiers (variation selectors, zero-width joiner, skin
 * tones, keycaps, regional-indicator flags, tag characters), other symbols (Unicode "So": ★ ♥ ☎ ©),
 * private-use and unpaired surrogate code points, and control characters other than tab and new line.
 * Kept: letters of every script, digits, ordinary punctuation and spaces, so names such as
 * "冷库_01 (A-3)" pass unchanged.
 */
const EMOJI_AND_SYMBOLS =
  /[0-9#*]\u{FE0F}?\u{20E3}|[\p{Extended_Pictographic}\p{Regional_Indicator}\p{So}\p{Co}\u{FE00}-\u{FE0F}\u{200D}\u{20E3}\u{1F3FB}-\u{1F3FF}\u{E0020}-\u{E007F}]|[\u0000-\u0008\u000b-\u001f\u007f]|\p{Cs}/gu;

export function stripSymbols(value: string): string {
  return value.replace(EMOJI_AND_SYMBOLS, '');
}

export function hasSymbols(value: string): boolean {
  EMOJI_AND_SYMBOLS.lastIndex = 0;
  const found = EMOJI_AND_SYMBOLS.test(value);
  EMOJI_AND_SYMBOLS.lastIndex = 0;
  return found;
}
