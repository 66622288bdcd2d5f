import { describe, expect, test } from '@jest/globals';
import { isCrossSiteCall } from './origin-check';

const allowed = ['https://app.example.com'];
const check = (headers: Record<string, string>, hops = 0) => isCrossSiteCall(new Headers(headers), allowed, hops);

describe('isCrossSiteCall', () => {
  test('allowed origins and the own host pass', () => {
    expect(check({ origin: 'https://app.example.com', host: 'api.example.com' })).toBe(false);
    expect(check({ origin: 'HTTPS://APP.EXAMPLE.COM/', host: 'api.example.com' })).toBe(false);
    expect(check({ origin: 'http://api.example.com', host: 'api.example.com' })).toBe(false);
  });

  test('other origins, sibling subdomains and "null" are refused', () => {
    expect(check({ origin: 'https://evil.example', host: 'api.example.com' })).toBe(true);
    expect(check({ origin: 'https://evil.app.example.com', host: 'api.example.com' })).toBe(true);
    expect(check({ origin: 'null', host: 'api.example.com' })).toBe(true);
    expect(check({ origin: 'https://app.example.com' + '.evil.example', host: 'api.example.com' })).toBe(true);
  });

  test('without Origin: only Sec-Fetch-Site cross-site is refused (non-browser callers pass)', () => {
    expect(check({ 'sec-fetch-site': 'cross-site', host: 'api.example.com' })).toBe(true);
    expect(check({ 'sec-fetch-site': 'same-origin', host: 'api.example.com' })).toBe(false);
    expect(check({ host: 'api.example.com' })).toBe(false);
  });

  test('X-Forwarded-Host names the host only behind a trusted proxy', () => {
    const forged = { origin: 'https://evil.example', host: 'api.example.com', 'x-forwarded-host': 'evil.example' };
    expect(check(forged)).toBe(true);
    expect(check(forged, 1)).toBe(false);
    expect(check({ origin: 'https://api.example.com', host: 'api:4000', 'x-forwarded-host': 'api.example.com' }, 1)).toBe(false);
  });
});
