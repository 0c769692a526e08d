import path from 'node:path';
import { makeIgnoreFn } from 'next/dist/build/collect-build-traces';
import { describe, expect, it } from 'vitest';
import nextConfig, { tracingExcludes } from '../../next.config';

/**
 * Issue 46: `next build` failed with EMFILE in "Collecting build traces": its tracing root is the
 * repository root (Next keeps it equal to Turbopack's root, which must hold the hoisted
 * node_modules), so the traces walked .venv and var. Checked with Next's own ignore function, as the
 * build applies `outputFileTracingExcludes` to the server's trace.
 */
describe('build traces', () => {
  const root = path.resolve(__dirname, '../../..');
  const ignored = makeIgnoreFn(root, nextConfig.outputFileTracingExcludes?.['*'] ?? []);

  it('trace from the repository root, the root Turbopack has too', () => {
    expect(nextConfig.outputFileTracingRoot).toBe(root);
    expect(nextConfig.turbopack?.root).toBe(root);
    expect(nextConfig.outputFileTracingExcludes?.['*']).toEqual(tracingExcludes);
  });

  it.each([
    '.venv/lib/python3.11/site-packages/flask/app.py',
    'var/coldchain.db',
    'var/test-artifacts/junit.xml',
    '.git/objects/pack/pack-1.pack',
    'api/telemetry/store.py',
    'tests/api/test_fda.py',
    'node_modules/.cache/webpack/0.pack',
  ])('leave out %s', (file) => {
    expect(ignored(file)).toBe(true);
  });

  it.each([
    'node_modules/next/dist/server/next-server.js',
    'node_modules/react/index.js',
    'web/.next/server/pages/index.js',
    'web/public/locales/en/common.json',
    'themes/default/theme.json',
  ])('keep %s', (file) => {
    expect(ignored(file)).toBe(false);
  });
});
