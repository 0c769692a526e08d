import { describe, expect, it } from 'vitest';
import nextConfig, { contentSecurityPolicy, securityHeaders } from '../../next.config';

const directives = Object.fromEntries(
  contentSecurityPolicy.split(';').map((part) => {
    const [name, ...values] = part.trim().split(/\s+/);
    return [name, values];
  }),
);

describe('security headers of the pages', () => {
  it('forbids framing, sniffing and leaking the full referrer', () => {
    const byName = Object.fromEntries(securityHeaders.map((h) => [h.key, h.value]));
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(byName['X-Frame-Options']).toBe('DENY');
    expect(byName['X-Content-Type-Options']).toBe('nosniff');
    expect(byName['Referrer-Policy']).toBe('strict-origin-when-cross-origin');
  });

  it('runs scripts only from this origin (and the maps loader), never eval or plugins', () => {
    expect(directives['script-src']).toContain("'self'");
    expect(directives['script-src']).not.toContain("'unsafe-eval'");
    expect(directives['script-src']).not.toContain("'unsafe-inline'");
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['default-src']).toEqual(["'self'"]);
  });

  it('lets antd and styled-components inject their styles', () => {
    expect(directives['style-src']).toContain("'unsafe-inline'");
  });

  it('applies to every page but leaves /api answers their own headers', async () => {
    const rules = await nextConfig.headers!();
    const patterns = rules.map((rule) => new RegExp(`^${rule.source.replace('/:path(', '/(').replace(/\)$/, ')')}$`));
    const matches = (path: string) => patterns.some((pattern) => pattern.test(path));
    expect(matches('/')).toBe(true);
    expect(matches('/user/login')).toBe(true);
    expect(matches('/_next/static/chunks/main.js')).toBe(true);
    expect(matches('/api/base/BaseAccount/accountInfo')).toBe(false);
    expect(matches('/api')).toBe(false);
    expect(matches('/apidocs')).toBe(true);
  });
});
