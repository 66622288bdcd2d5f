import { describe, expect, it } from '@jest/globals';
import { stagingWebhookUrl } from './webhook-url';

describe('stagingWebhookUrl', () => {
  it('appends the callback path to the origin', () => {
    expect(stagingWebhookUrl('https://api.example.test', 'att-1')).toBe('https://api.example.test/api/webhooks/provider/staging/att-1');
  });

  it('keeps an explicit port (local development over loopback)', () => {
    expect(stagingWebhookUrl('http://127.0.0.1:4000', '6f1c2f0e-8a6b-4c1e-9d7e-1a2b3c4d5e6f')).toBe(
      'http://127.0.0.1:4000/api/webhooks/provider/staging/6f1c2f0e-8a6b-4c1e-9d7e-1a2b3c4d5e6f',
    );
  });

  it('encodes the attempt ID as one path segment', () => {
    expect(stagingWebhookUrl('https://api.example.test', 'a/b?c#d e')).toBe('https://api.example.test/api/webhooks/provider/staging/a%2Fb%3Fc%23d%20e');
  });

  it.each([
    ['a trailing slash', 'https://api.example.test/'],
    ['a path', 'https://api.example.test/base'],
    ['a query', 'https://api.example.test?x=1'],
    ['an upper-case host (not the canonical origin)', 'https://API.example.test'],
    ['no scheme', 'api.example.test'],
    ['an opaque origin', 'mailto:ops@example.test'],
  ])('rejects a base URL with %s', (_label, base) => {
    expect(() => stagingWebhookUrl(base, 'att-1')).toThrow();
  });

  it('rejects an empty attempt ID', () => {
    expect(() => stagingWebhookUrl('https://api.example.test', '')).toThrow('providerAttemptId');
  });
});
