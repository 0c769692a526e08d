import path from 'node:path';
import type { NextConfig } from 'next';

// The api origin every tenant host talks to through the /api rewrite (one origin per host);
// read at build time (the rewrite is part of the build) and by server renders at run time.
const apiUrl = (process.env.API_URL || 'http://127.0.0.1:5000').replace(/\/+$/, '');

const nextConfig: NextConfig = {
  // The /api rewrite is fixed at build time, so a build for another api (e2e) gets its own folder.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  reactStrictMode: true,
  poweredByHeader: false,
  // The repo root holds themes/ (style models read at build time) and the lock file.
  turbopack: { root: path.resolve(process.cwd(), '..') },
  outputFileTracingRoot: path.resolve(process.cwd(), '..'),
  compiler: { styledComponents: true },
  // `next dev` serves every tenant host of the development aliases (junjia.localhost ...).
  allowedDevOrigins: ['*.localhost'],
  async redirects() {
    // The console shell (home, menus) arrives in a later issue: until then / opens sign-in.
    return [{ source: '/', destination: '/user/login', permanent: false }];
  },
  async rewrites() {
    return [{ source: '/api/:path*', destination: `${apiUrl}/api/:path*` }];
  },
};

export default nextConfig;
