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

/** The props of each raw antd `<Table` element: from its opening to the `/>` or `>` at its own indentation. */
export function rawTables(source: string): string[] {
  const found: string[] = [];
  const opening = /^([ \t]*)(?:.*?)<Table\b/gm;
  for (let match = opening.exec(source); match; match = opening.exec(source)) {
    const start = match.index + match[0].length;
    const line = source.slice(
      match.index,
      source.indexOf('\n', start) === -1 ? source.length : source.indexOf('\n', start),
    );
    if (/\/>\s*[)};,]*\s*$/.test(line)) {
      found.push(line);
      continue;
    }
    const close = new RegExp(`\\n${match[1]}\\/?>`).exec(source.slice(start));
    found.push(source.slice(start, close ? start + close.index : source.length));
  }
  return found;
}

/** A server page (current / total, or a paged query's config) rather than none or a client-side page size. */
export function pagesOnServer(props: string): boolean {
  const value = /\bpagination=\{/.exec(props);
  if (!value) return false;
  const rest = props.slice(value.index + value[0].length);
  if (rest.startsWith('false}')) return false;
  if (rest.startsWith('{')) return /\b(current|total|onChange)\b/.test(rest.slice(0, rest.indexOf('}}') + 2));
  return true;
}

describe('paged lists go through DataList (table on desktop, cards on phones)', () => {
  it('finds a server-paged raw Table and lets others pass', () => {
    const [paged, clientSide, none] = rawTables(
      [
        '    <Table<Row>',
        '      rowKey="id"',
        '      pagination={list.pagination}',
        '    />',
        '    <Table rowKey="id" pagination={{ pageSize: 10 }} />',
        '    <Table',
        '      pagination={false}',
        '    />',
      ].join('\n'),
    );
    expect(pagesOnServer(paged)).toBe(true);
    expect(pagesOnServer(clientSide)).toBe(false);
    expect(pagesOnServer(none)).toBe(false);
    expect(pagesOnServer('pagination={{ current: page, total: 3 }}')).toBe(true);
  });

  it('no area renders a server-paged list with a raw antd Table', () => {
    const offenders = sources(COMPONENTS)
      .filter((file) => !file.endsWith(path.join('ui', 'DataList.tsx')))
      .flatMap((file) =>
        rawTables(fs.readFileSync(file, 'utf8'))
          .filter(pagesOnServer)
          .map(() => path.relative(COMPONENTS, file)),
      );
    expect(offenders).toEqual([]);
  });
});
