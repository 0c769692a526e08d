import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { outlinesIn, outlinesOf } from './baseMap';

const shipped = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../public/map/countries.json'), 'utf8'));

describe('the offline base map', () => {
  const outlines = outlinesOf(shipped);

  it('ships the country outlines with the web (no key, no network)', () => {
    expect(outlines.length).toBeGreaterThan(200);
    const china = outlines.find((outline) => outline.name === 'China');
    expect(china).toBeDefined();
    const [south, west, north, east] = china!.box;
    expect(south).toBeLessThan(31.23);
    expect(north).toBeGreaterThan(31.23);
    expect(west).toBeLessThan(121.47);
    expect(east).toBeGreaterThan(121.47);
    expect(fs.statSync(path.join(__dirname, '../../../public/map/countries.json')).size).toBeLessThan(400_000);
  });

  it('draws only what reaches into the view', () => {
    const shanghai = outlinesIn(outlines, [31.1, 121.3, 31.3, 121.6]).map((outline) => outline.name);
    expect(shanghai).toContain('China');
    expect(shanghai).not.toContain('Brazil');
  });
});
