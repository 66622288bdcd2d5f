import { describe, expect, it } from '@jest/globals';
import { resolveRequestSource } from './request-source';
import { isCrossSiteRequest } from './same-origin';
import type { OriginCheckInput } from './same-origin';

const post = (input: Partial<OriginCheckInput>) =>
  isCrossSiteRequest({
    method: 'POST',
    origin: undefined,
    secFetchSite: undefined,
    host: 'api.example.com',
    allowedOrigins: ['https://app.example.com'],
    ...input,
  });

describe('isCrossSiteRequest', () => {
  it('lets safe methods through whatever their origin', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'get']) expect(post({ method, origin: 'https://evil.example' })).toBe(false);
  });

  it('accepts allowed origins and the own host, by host only', () => {
    expect(post({ origin: 'https://app.example.com' })).toBe(false);
    expect(post({ origin: 'HTTPS://APP.EXAMPLE.COM/' })).toBe(false);
    expect(post({ origin: 'http://api.example.com' })).toBe(false);
    expect(post({ origin: 'https://API.example.com', host: 'api.EXAMPLE.com' })).toBe(false);
  });

  it('refuses other origins, sibling subdomains, "null", and any Origin when the host is unknown', () => {
    expect(post({ origin: 'https://evil.example' })).toBe(true);
    expect(post({ origin: 'https://evil.app.example.com' })).toBe(true);
    expect(post({ origin: 'https://app.example.com.evil.example' })).toBe(true);
    expect(post({ origin: 'null' })).toBe(true);
    expect(post({ origin: 'https://api.example.com', host: undefined })).toBe(true);
  });

  it('without Origin refuses only Sec-Fetch-Site cross-site (non-browser callers pass)', () => {
    expect(post({ secFetchSite: 'cross-site' })).toBe(true);
    expect(post({ secFetchSite: 'same-origin' })).toBe(false);
    expect(post({})).toBe(false);
  });

  it('refuses the sign-out forgery: a foreign Origin with a matching X-Forwarded-Host, at 0 hops', () => {
    const forged = { peerAddress: '198.51.100.9', encrypted: false, host: 'app.example.com', forwardedFor: undefined, forwardedHost: 'evil.example', forwardedProto: 'https' };
    const { host } = resolveRequestSource(forged, 0);
    expect(isCrossSiteRequest({ method: 'POST', origin: 'http://evil.example', secFetchSite: undefined, host, allowedOrigins: [] })).toBe(true);
  });
});
