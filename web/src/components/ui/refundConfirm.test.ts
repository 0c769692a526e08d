import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const COMPONENTS = path.resolve(__dirname, '..');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.tsx') ? [full] : [];
  });
}

/**
 * Calls that give money back at once: an order's refund and the approval of a calibration
 * cancellation (which refunds a paid application).
 */
const REFUNDING = [/\brefundOrder\(/, /\bcancelCheck\([^,]+,\s*true\b/];

/** A refunding call only runs from a confirmation's OK (Popconfirm onConfirm, modal.confirm onOk). */
export function unconfirmedRefunds(source: string): string[] {
  const lines = source.split('\n');
  return lines.flatMap((line, index) => {
    if (!REFUNDING.some((pattern) => pattern.test(line))) return [];
    const around = lines.slice(Math.max(0, index - 2), index + 1).join('\n');
    return /onConfirm=|onOk:/.test(around) ? [] : [line.trim()];
  });
}

describe('a confirmation before any refund (issue 47)', () => {
  it('finds a refund behind a bare click', () => {
    expect(unconfirmedRefunds('<Button onClick={() => cancelCheck(id, true, text)} />')).toHaveLength(1);
    expect(unconfirmedRefunds('modal.confirm({ title, onOk: () => refundOrder(o.id) })')).toEqual([]);
    expect(unconfirmedRefunds('<Button onClick={() => cancelCheck(id, false, text)} />')).toEqual([]);
  });
  it('every refunding call of every page runs from a confirmation', () => {
    const found = sources(COMPONENTS).flatMap((file) =>
      unconfirmedRefunds(fs.readFileSync(file, 'utf8')).map((line) => `${path.relative(COMPONENTS, file)}: ${line}`),
    );
    expect(found).toEqual([]);
  });
});
