import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const WEB = path.resolve(__dirname, '../..');

/** The exit status of openapi-typescript's own --check of schema.d.ts against openapi.json. */
function checkGenerated(output: string): number {
  try {
    execFileSync('openapi-typescript', ['openapi.json', '-o', output, '--check'], { cwd: WEB, stdio: 'pipe' });
    return 0;
  } catch (error) {
    return (error as { status?: number }).status ?? -1;
  }
}

// web/openapi.json is the api's document (tests/api/test_web_types.py keeps it current); `make api-types` writes both.
describe('generated api types', () => {
  it('src/api/schema.d.ts is what openapi-typescript generates from openapi.json', () => {
    expect(checkGenerated('src/api/schema.d.ts'), 'run `make api-types` and commit web/src/api/schema.d.ts').toBe(0);
  }, 30_000);
});
