/**
 * Display length of spec section 5: a character above code 128 (Chinese, accented letters, emoji)
 * counts two, everything else one. Counted per code point, so an emoji is one character of two.
 */
export function displayLength(value: string | null | undefined): number {
  let length = 0;
  for (const char of value ?? '') length += (char.codePointAt(0) ?? 0) > 128 ? 2 : 1;
  return length;
}

/** The longest prefix of `value` whose display length is at most `max`. */
export function truncateToDisplayLength(value: string, max: number): string {
  let length = 0;
  let end = 0;
  for (const char of value) {
    length += (char.codePointAt(0) ?? 0) > 128 ? 2 : 1;
    if (length > max) break;
    end += char.length;
  }
  return value.slice(0, end);
}

/** `value` shortened to `max` display columns when longer, the ellipsis (two columns: above code 128) included. */
export function shortLabel(value: string, max: number): string {
  return displayLength(value) <= max ? value : `${truncateToDisplayLength(value, max - 2)}…`;
}
