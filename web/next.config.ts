import path from 'node:path';
import type { NextConfig } from 'next';

const dev = process.env.NODE_ENV === 'development';

/**
 * The pages' Content-Security-Policy. Scripts only from this origin (Next's pages router needs no
 * inline script: __NEXT_DATA__ is JSON, never run; the production build uses webpack (`next build
 * --webpack`) because Turbopack's pages-router build writes an inline chunk-list script that this
 * policy blocks); development adds 'unsafe-eval' for React Refresh.
 * antd's css-in-js and styled-components write <style> elements at run time, hence inline styles.
 * Images may be data:/blob: (antd icons, ApexCharts exports) and Google Maps tiles; maps scripts,
 * fonts and tiles come from Google when a key is configured. No site may frame the console.
 */
export const contentSecurityPolicy = [
  "default-src 'self'",
  `script-src 'self'${dev ? " 'unsafe-eval' 'unsafe-inline'" : ''} https://maps.googleapis.com`,
  "style-src 'self' 'unsafe-inline' https://fonts.googleapis.com",
  "img-src 'self' data: blob: https://*.googleapis.com https://*.gstatic.com https://*.google.com",
  "font-src 'self' data: https://fonts.gstatic.com",
  `connect-src 'self' https://*.googleapis.com${dev ? ' ws: wss:' : ''}`,
  "worker-src 'self' blob:",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const securityHeaders = [
  { key: 'Content-Security-Policy', value: contentSecurityPolicy },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), payment=()' },
];

const repositoryRoot = path.resolve(process.cwd(), '..');

/** Folders of the repository root the web server never reads (globs relative to the tracing root). */
export const tracingExcludes = [
  '.venv/**',
  'var/**',
  '.git/**',
  'api/**',
  'tests/**',
  'bench/**',
  'docs/**',
  'tenants/**',
  'node_modules/.cache/**',
  '.hypothesis/**',
  '.schemathesis/**',
  '.pydeps/**',
];

// /api/* is forwarded to the api (API_URL, read at run time) by src/pages/api/[...path].ts.
const nextConfig: NextConfig = {
  // The overseas map edition is one setting for the api and the web build alike: OVERSEAS=1 (English by
  // default, no help entry, Google map). NEXT_PUBLIC_OVERSEAS=1 is still understood.
  env: { NEXT_PUBLIC_OVERSEAS: process.env.OVERSEAS === '1' || process.env.NEXT_PUBLIC_OVERSEAS === '1' ? '1' : '0' },
  // A build of its own for the e2e run, so it never replaces a development build.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  reactStrictMode: true,
  poweredByHeader: false,
  // The repo root holds themes/ (style models read at build time), the lock file and the hoisted
  // node_modules; Next keeps the tracing root and Turbopack's root the same, so both are the repo root.
  turbopack: { root: repositoryRoot },
  outputFileTracingRoot: repositoryRoot,
  // The build's traces never walk the api's side of the repository: tracing opened every file of
  // .venv (tens of thousands) and failed with EMFILE under the usual open-file limit of 1024.
  outputFileTracingExcludes: { '*': tracingExcludes },
  compiler: { styledComponents: true },
  // The pages' server code bundles its packages (antd, rc-*, dayjs ...) as the app router does: left
  // external, the build's tracer parsed every file of those packages for every page, and "Collecting
  // build traces" took 12-14 of the build's 16 minutes on this machine (3.5 minutes in all when bundled).
  bundlePagesRouterDependencies: true,
  // `next dev` serves every tenant host of the development aliases (junjia.localhost ...).
  allowedDevOrigins: ['*.localhost'],
  // Every page and asset; /api/* answers carry the api's own (stricter) headers.
  async headers() {
    return [
      { source: '/', headers: securityHeaders },
      { source: '/:path((?!api(?:/|$)).*)', headers: securityHeaders },
    ];
  },
};

export default nextConfig;
