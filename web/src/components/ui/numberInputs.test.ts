import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The class of issue 47: antd's InputNumber given min/max clamps an out-of-range value silently on
 * blur (1,000 GUIDs became 999). A number input gets no min/max: a form field gets rangeRules on its
 * Form.Item, a standalone input shows NumberRangeError. A spread ({...props}) could carry min/max
 * unseen, so it is refused too.
 */
const SRC = join(__dirname, '../..');

/**
 * Inputs where clamping is the expected behaviour (pure UI controls, nothing the user asked for is
 * lost): file (relative to web/src) and why. Keep it short.
 */
const ALLOWED: Record<string, string> = {};

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : tsxFiles(path);
    return entry.name.endsWith('.tsx') ? [path] : [];
  });
}

/** The text of each `<InputNumber ...>` opening tag (it may span lines; braces may hold `>` or `/>`). */
function inputNumberTags(source: string): { tag: string; at: number }[] {
  const tags: { tag: string; at: number }[] = [];
  let from = source.indexOf('<InputNumber');
  while (from !== -1) {
    let depth = 0;
    let end = from + '<InputNumber'.length;
    for (; end < source.length; end += 1) {
      const char = source[end];
      if (char === '{') depth += 1;
      else if (char === '}') depth -= 1;
      else if (char === '>' && depth === 0) break;
    }
    tags.push({ tag: source.slice(from, end + 1), at: from });
    from = source.indexOf('<InputNumber', end);
  }
  return tags;
}

/** The offending props of a tag: min=, max= or a spread. */
function offending(tag: string): string[] {
  // Props live outside braces: drop every braced expression's content before looking, but note a
  // top-level brace that opens with `...` (a spread prop).
  let depth = 0;
  let outside = '';
  let spread = false;
  for (let index = 0; index < tag.length; index += 1) {
    const char = tag[index];
    if (char === '{') {
      if (depth === 0 && outside.endsWith(' ') && /^\{\s*\.\.\./.test(tag.slice(index))) spread = true;
      depth += 1;
    } else if (char === '}') depth -= 1;
    else if (depth === 0) outside += char.trim() ? char : ' ';
  }
  const found = [...outside.matchAll(/\s(min|max)=/g)].map((match) => match[1]);
  return spread ? [...found, 'spread'] : found;
}

describe('number inputs never clamp silently (issue 47)', () => {
  it('finds a tag that spans lines and sees min/max on it', () => {
    const source = 'a <InputNumber\n  value={x > 1 ? 1 : 2}\n  min={1}\n  max={9}\n/> b <InputNumber precision={0} />';
    const tags = inputNumberTags(source).map(({ tag }) => tag);
    expect(tags).toHaveLength(2);
    expect(offending(tags[0])).toEqual(['min', 'max']);
    expect(offending(tags[1])).toEqual([]);
    expect(offending('<InputNumber onChange={(v) => set({ ...draft, v })} />')).toEqual([]);
    expect(offending('<InputNumber {...range} />')).toEqual(['spread']);
    expect(offending('<InputNumber placeholder={t("min=")} />')).toEqual([]);
  });

  it('no InputNumber under src carries min, max or a spread, except the allow-listed ones', () => {
    const found: string[] = [];
    for (const file of tsxFiles(SRC)) {
      const name = relative(SRC, file).split('\\').join('/');
      if (name in ALLOWED) continue;
      const source = readFileSync(file, 'utf8');
      for (const { tag, at } of inputNumberTags(source)) {
        const props = offending(tag);
        if (props.length) {
          const line = source.slice(0, at).split('\n').length;
          found.push(`${name}:${line} ${props.join(', ')}`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('every allow-listed file still exists and has a reason', () => {
    for (const [name, reason] of Object.entries(ALLOWED)) {
      expect(reason.length).toBeGreaterThan(10);
      expect(tsxFiles(SRC).map((file) => relative(SRC, file).split('\\').join('/'))).toContain(name);
    }
  });

  it('every page that can show a range refusal loads the shell namespace (where its messages live)', () => {
    const resolve = (from: string, spec: string) => {
      const base = spec.startsWith('@/') ? join(SRC, spec.slice(2)) : join(dirname(from), spec);
      return ['.tsx', '.ts', '/index.tsx', '/index.ts'].map((ext) => base + ext).find((path) => existsSync(path));
    };
    const imports = (file: string) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'((?:@\/|\.)[^']*)'/g)]
        .map((match) => resolve(file, match[1]))
        .filter((path): path is string => Boolean(path));
    const reaches = (page: string) => {
      const seen = new Set<string>();
      const stack = [page];
      while (stack.length) {
        const file = stack.pop() as string;
        if (seen.has(file)) continue;
        seen.add(file);
        stack.push(...imports(file));
      }
      return seen.has(join(__dirname, 'rangeRules.ts'));
    };
    const pages = tsxFiles(join(SRC, 'pages')).filter((file) => !/[\\/]_(app|document)\.tsx$/.test(file));
    const using = pages.filter(reaches);
    expect(using.length).toBeGreaterThan(10);
    // consolePageProps and calibrationProps both load `shell`; any other page must name it.
    expect(readFileSync(join(SRC, 'server/pageProps.ts'), 'utf8')).toMatch(/SHELL_NAMESPACES = \[[^\]]*'shell'/);
    expect(readFileSync(join(SRC, 'server/calibrationProps.ts'), 'utf8')).toMatch(/sitePageProps\(\[[^\]]*'shell'/);
    const missing = using.filter(
      (page) =>
        !/consolePageProps\(|calibrationProps\(|sitePageProps\(\[[^\]]*'shell'/.test(readFileSync(page, 'utf8')),
    );
    expect(missing.map((page) => relative(SRC, page))).toEqual([]);
  });
});
