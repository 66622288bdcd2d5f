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

  it('lets the cached public pages run inline scripts of their own instead of nonced ones, and nothing else changes', () => {
    const policy = contentSecurityPolicy({ nonce: null, development: false });
    expect(policy).toContain("script-src 'self' 'unsafe-inline';");
    expect(policy).not.toMatch(/nonce|strict-dynamic|unsafe-eval/);
    const directives = (value: string) => value.split('; ').filter((directive) => !directive.startsWith('script-src'));
    expect(directives(policy)).toEqual(directives(contentSecurityPolicy({ nonce: 'abc', development: false })));
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
