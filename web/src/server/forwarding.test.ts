import { describe, expect, it } from 'vitest';
import { answerHeaders, forwardHeaders, plainAddress, trustedProxies } from './forwarding';

const browser = { address: '::ffff:203.0.113.7', encrypted: false };

describe('forwardHeaders (the /api proxy)', () => {
  it('tells the api the client address, host and scheme', () => {
    const headers = forwardHeaders(
      {
        host: 'junjia.localhost:3000',
        accept: 'application/json',
        authorization: 'Bearer t',
        'accept-language': 'en-US',
      },
      browser,
      new Set(),
      '127.0.0.1:5000',
    );
    expect(headers).toEqual({
      host: '127.0.0.1:5000',
      accept: 'application/json',
      authorization: 'Bearer t',
      'accept-language': 'en-US',
      'x-forwarded-for': '203.0.113.7',
      'x-forwarded-host': 'junjia.localhost:3000',
      'x-forwarded-proto': 'http',
    });
  });

  it('replaces forwarding headers a browser made up', () => {
    const headers = forwardHeaders(
      {
        host: 'localhost:3000',
        'x-forwarded-for': '10.9.9.9',
        'x-forwarded-host': 'junjia.localhost',
        'x-forwarded-proto': 'https',
        forwarded: 'for=1.1.1.1',
      },
      browser,
      new Set(['10.0.0.1']),
      'api:5000',
    );
    expect(headers['x-forwarded-for']).toBe('203.0.113.7');
    expect(headers['x-forwarded-host']).toBe('localhost:3000');
    expect(headers['x-forwarded-proto']).toBe('http');
    expect(headers.forwarded).toBeUndefined();
  });

  it('believes a configured proxy in front (its last X-Forwarded-For entry is the client)', () => {
    const headers = forwardHeaders(
      {
        host: 'internal:3000',
        'x-forwarded-for': '6.6.6.6, 198.51.100.4',
        'x-forwarded-host': 'shop.example.com',
        'x-forwarded-proto': 'https',
      },
      { address: '10.0.0.1', encrypted: false },
      trustedProxies('10.0.0.1, ::1'),
      'api:5000',
    );
    expect(headers).toMatchObject({
      'x-forwarded-for': '198.51.100.4',
      'x-forwarded-host': 'shop.example.com',
      'x-forwarded-proto': 'https',
    });
  });

  it('drops hop-by-hop headers, also those named by Connection', () => {
    const headers = forwardHeaders(
      {
        host: 'h',
        connection: 'keep-alive, x-secret',
        'keep-alive': 'timeout=5',
        'x-secret': '1',
        'transfer-encoding': 'chunked',
        'content-length': '3',
      },
      { address: '127.0.0.1', encrypted: true },
      new Set(),
      'api',
    );
    expect(Object.keys(headers).sort()).toEqual([
      'content-length',
      'host',
      'x-forwarded-for',
      'x-forwarded-host',
      'x-forwarded-proto',
    ]);
    expect(headers['x-forwarded-proto']).toBe('https');
    expect(answerHeaders({ 'content-type': 'image/png', connection: 'close', 'x-captcha-key': 'k' })).toEqual({
      'content-type': 'image/png',
      'x-captcha-key': 'k',
    });
  });

  it('normalises IPv4-mapped addresses', () => {
    expect(plainAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(plainAddress('::1')).toBe('::1');
    expect(plainAddress(undefined)).toBe('');
  });
});
