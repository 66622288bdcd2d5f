import { contentSecurityPolicy, createNonce, reportOriginOf } from './content-security-policy';

describe('content security policy', () => {
  it('allows scripts only with the nonce in production, and never framing', () => {
    const policy = contentSecurityPolicy({ nonce: 'abc', development: false });
    expect(policy).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(policy).not.toContain('unsafe-eval');
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
  });

  it('adds eval and the HMR websocket only in development, and the Sentry origin when set', () => {
    const policy = contentSecurityPolicy({ nonce: 'n', development: true, reportOrigin: 'https://o1.ingest.sentry.io' });
    expect(policy).toContain("'unsafe-eval'");
    expect(policy).toContain("connect-src 'self' ws: wss: https://o1.ingest.sentry.io");
    expect(reportOriginOf('https://key@o1.ingest.sentry.io/42')).toBe('https://o1.ingest.sentry.io');
    expect(reportOriginOf('not a url')).toBeUndefined();
  });

  it('makes a different nonce every time', () => {
    expect(createNonce()).not.toBe(createNonce());
    expect(createNonce()).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});
