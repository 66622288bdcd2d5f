import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { NextRequest } from 'next/server';
import { webTestEnv } from '@staging/config/test-env';

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
