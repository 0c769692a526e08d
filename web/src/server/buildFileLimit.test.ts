import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 46: `next build` failed with EMFILE in "Collecting build traces" where a process may open
 * 1,024 files (the tracer reads up to 1,024 at once). The build preloads scripts/limit-file-io.mjs,
 * which bounds the reads; here, as the tracer does, thousands of reads at once under a limit of 256.
 */
const web = path.resolve(__dirname, '../..');
const manyReads = `
const fsp = require('node:fs/promises');
Promise.all(Array.from({ length: 3000 }, () => fsp.readFile('package.json'))).then(
  () => console.log('read all'),
  (error) => { console.log(error.code); process.exit(1); },
);`;

function readUnderLowLimit(preload: string) {
  return spawnSync('sh', ['-c', `ulimit -n 256 && exec node ${preload} -e "$READS"`], {
    cwd: web,
    env: { ...process.env, READS: manyReads, NODE_OPTIONS: '' },
    encoding: 'utf8',
  });
}

describe('the build under a low open-file limit', () => {
  it('fails with EMFILE without the bound (the planted defect)', () => {
    const run = readUnderLowLimit('');
    expect(run.stdout.trim()).toBe('EMFILE');
  });

  it('reads everything with the preload the build uses', () => {
    const run = readUnderLowLimit('--import ./scripts/limit-file-io.mjs');
    expect(run.stdout.trim()).toBe('read all');
    expect(run.status).toBe(0);
  });

  it('is preloaded by npm run build', () => {
    const manifest = JSON.parse(readFileSync(path.join(web, 'package.json'), 'utf8'));
    expect(manifest.scripts.build).toContain('--import ./scripts/limit-file-io.mjs');
    expect(manifest.scripts.build).toContain('next build');
  });
});
