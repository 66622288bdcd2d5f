import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { NextRequest } from 'next/server';
import { webTestEnv } from '@staging/config/test-env';
import { PUBLIC_PAGE_CACHE_CONTROL } from '@staging/http-edge/public-cache';

// The proxy reads its configuration from the environment once, as in production behind one proxy.
const saved = { ...process.env };
let proxy: (request: NextRequest) => Response;
beforeAll(async () => {
  Object.assign(process.env, webTestEnv({ NODE_ENV: 'production', TRUSTED_PROXY_HOPS: '1' }));
  ({ proxy } = await import('./proxy'));
});
afterAll(() => {
  process.env = saved;
});

const hstsOf = (headers: Record<string, string>) =>
  proxy(new NextRequest('http://app.example.test/search', { headers: { host: 'app.example.test', ...headers } })).headers.get(
    'strict-transport-security',
  );

describe('web pages: Strict-Transport-Security', () => {
  it('is sent when the trusted proxy says the browser used HTTPS', () => {
    expect(hstsOf({ 'x-forwarded-proto': 'https' })).toBe('max-age=31536000; includeSubDomains');
  });

  it('is not sent over plain HTTP, nor on a client entry left of the proxy', () => {
    expect(hstsOf({ 'x-forwarded-proto': 'http' })).toBeNull();
    expect(hstsOf({})).toBeNull();
    expect(hstsOf({ 'x-forwarded-proto': 'https, http' })).toBeNull();
  });
});

describe('web pages: public pages a CDN can keep', () => {
  const visit = (path: string, headers: Record<string, string> = {}) =>
    proxy(new NextRequest(`http://app.example.test${path}`, { headers: { host: 'app.example.test', ...headers } }));
  const rewrittenTo = (response: Response) => response.headers.get('x-middleware-rewrite')?.replace('http://app.example.test', '');

  it('rewrites a listing or a search to the route of the language chosen by the usual rule', () => {
    expect(rewrittenTo(visit('/listings/abc', { 'accept-language': 'es-ES,es;q=0.9' }))).toBe('/es/listings/abc');
    expect(rewrittenTo(visit('/listings/abc', { 'accept-language': 'es', cookie: 'locale=en' }))).toBe('/en/listings/abc');
    expect(rewrittenTo(visit('/search'))).toBe('/en/search');
    // Next.js's own parameters stay; the query moves into the path.
    expect(rewrittenTo(visit('/search?q=casa&_rsc=1x2y'))).toMatch(/^\/en\/search\/[\w-]+\?_rsc=1x2y$/);
  });

  it('gives public pages the static policy and a bounded shared-cache lifetime, keyed by what picks the language', () => {
    for (const path of ['/listings/abc', '/search?q=casa', '/es/listings/abc']) {
      const response = visit(path);
      expect(response.headers.get('cache-control')).toBe(PUBLIC_PAGE_CACHE_CONTROL);
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self' 'unsafe-inline';");
      expect(response.headers.get('content-security-policy')).not.toContain('nonce-');
    }
    expect(visit('/listings/abc').headers.get('vary')).toBe('Accept-Language, Cookie');
  });

  it('keeps a fresh nonce per request and no cache lifetime on every other page', () => {
    const policies = ['/sign-in', '/sign-in'].map((path) => visit(path).headers.get('content-security-policy') ?? '');
    for (const policy of policies) expect(policy).toMatch(/'nonce-[^']+' 'strict-dynamic'/);
    expect(policies[0]).not.toBe(policies[1]);
    expect(visit('/sign-in').headers.get('cache-control')).toBeNull();
  });
});
