import { describe, expect, it } from '@jest/globals';
import { resolveRequestSource, STRICT_TRANSPORT_SECURITY, strictTransportSecurityFor } from './request-source';
import type { ForwardedRequest } from './request-source';

const direct: ForwardedRequest = {
  peerAddress: '198.51.100.9',
  encrypted: false,
  host: 'app.example.com',
  forwardedFor: undefined,
  forwardedHost: undefined,
  forwardedProto: undefined,
};
const resolve = (request: Partial<ForwardedRequest>, hops: number) => resolveRequestSource({ ...direct, ...request }, hops);

describe('resolveRequestSource with 0 trusted hops', () => {
  it('takes the socket as the client and ignores a forged X-Forwarded-For', () => {
    expect(resolve({ forwardedFor: '203.0.113.7' }, 0).clientIp).toBe('198.51.100.9');
    expect(resolve({ forwardedFor: '10.0.0.1, 127.0.0.1' }, 0).clientIp).toBe('198.51.100.9');
  });

  it('ignores X-Forwarded-Host and X-Forwarded-Proto', () => {
    const source = resolve({ forwardedHost: 'evil.example', forwardedProto: 'https' }, 0);
    expect(source).toEqual({ clientIp: '198.51.100.9', host: 'app.example.com', https: false });
    expect(resolve({ encrypted: true, forwardedProto: 'http' }, 0).https).toBe(true);
  });

  it('names no client where the runtime hides the socket', () => {
    expect(resolve({ peerAddress: undefined, forwardedFor: '203.0.113.7' }, 0).clientIp).toBeUndefined();
  });
});

describe('resolveRequestSource behind trusted proxies', () => {
  it('with 1 hop the right-most X-Forwarded-For entry wins', () => {
    expect(resolve({ forwardedFor: '203.0.113.7' }, 1).clientIp).toBe('203.0.113.7');
    expect(resolve({ forwardedFor: '10.0.0.1, 127.0.0.1, 203.0.113.7' }, 1).clientIp).toBe('203.0.113.7');
  });

  it('invented left-most entries never change the client', () => {
    const keys = ['1.1.1.1', '2.2.2.2, 3.3.3.3', 'garbage, , 10.0.0.8'].map(
      (invented) => resolve({ forwardedFor: `${invented}, 203.0.113.7` }, 1).clientIp,
    );
    expect(new Set(keys)).toEqual(new Set(['203.0.113.7']));
    expect(resolve({ forwardedFor: 'invented, 203.0.113.7, 10.0.0.2' }, 2).clientIp).toBe('203.0.113.7');
  });

  it('with fewer entries than hops takes the left-most, and the socket without any', () => {
    expect(resolve({ forwardedFor: '203.0.113.7' }, 3).clientIp).toBe('203.0.113.7');
    expect(resolve({}, 1).clientIp).toBe('198.51.100.9');
  });

  it('believes X-Forwarded-Host and -Proto of the outermost trusted hop', () => {
    expect(resolve({ forwardedHost: 'App.Example.com', forwardedProto: 'HTTPS' }, 1)).toEqual({
      clientIp: '198.51.100.9',
      host: 'app.example.com',
      https: true,
    });
    expect(resolve({ forwardedHost: 'evil.example, app.example.com', forwardedProto: 'https, http' }, 1)).toMatchObject({
      host: 'app.example.com',
      https: false,
    });
    expect(resolve({ forwardedProto: 'https, http' }, 2).https).toBe(true);
    expect(resolve({ encrypted: true }, 1).https).toBe(true);
  });
});

describe('strictTransportSecurityFor', () => {
  it('is sent over HTTPS in production only', () => {
    expect(strictTransportSecurityFor({ https: true }, 'production')).toBe(STRICT_TRANSPORT_SECURITY);
    expect(strictTransportSecurityFor({ https: false }, 'production')).toBeUndefined();
    expect(strictTransportSecurityFor({ https: true }, 'development')).toBeUndefined();
    expect(STRICT_TRANSPORT_SECURITY).toBe('max-age=31536000; includeSubDomains');
  });
});
