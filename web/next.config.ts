import path from 'node:path';
import type { NextConfig } from 'next';

// /api/* is forwarded to the api (API_URL, read at run time) by src/pages/api/[...path].ts.
const nextConfig: NextConfig = {
  // A build of its own for the e2e run, so it never replaces a development build.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  reactStrictMode: true,
  poweredByHeader: false,
  // The repo root holds themes/ (style models read at build time) and the lock file.
  turbopack: { root: path.resolve(process.cwd(), '..') },
  outputFileTracingRoot: path.resolve(process.cwd(), '..'),
  compiler: { styledComponents: true },
  // `next dev` serves every tenant host of the development aliases (junjia.localhost ...).
  allowedDevOrigins: ['*.localhost'],
};

export default nextConfig;
