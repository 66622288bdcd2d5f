import type { ErrorEvent } from '@sentry/node';
import { scrubEvent } from './error-tracker';

describe('scrubEvent', () => {
  it('removes tokens, signing secrets, cookies and URL queries from every part of an event', () => {
    const event: ErrorEvent = {
      type: undefined,
      message: 'GET https://s3.example.com/o.jpg?X-Amz-Signature=SIGVALUE failed',
      exception: {
        values: [{ type: 'Error', value: 'provider said 401 for Bearer r8_TOKENVALUE (whsec_SECRETVALUE)' }],
      },
      request: {
        url: 'https://api.example.com/api/property-images/1?session=QUERYVALUE',
        query_string: 'session=QUERYVALUE',
        cookies: { sid: 'COOKIEVALUE' },
        headers: { authorization: 'Bearer r8_TOKENVALUE', cookie: 'sid=COOKIEVALUE', 'user-agent': 'jest' },
      },
      extra: { providerApiToken: 'r8_TOKENVALUE', nested: { signedUrl: 'https://x/y?sig=SIGVALUE' } },
      breadcrumbs: [{ message: 'fetch https://replicate.delivery/o.png?token=SIGVALUE' }],
      tags: { jobId: 'job-1', errorCode: 'PROVIDER_AUTH' },
    };
    const scrubbed = scrubEvent(event);
    const text = JSON.stringify(scrubbed);
    for (const secret of ['SIGVALUE', 'TOKENVALUE', 'SECRETVALUE', 'COOKIEVALUE', 'QUERYVALUE']) {
      expect(text).not.toContain(secret);
    }
    expect(scrubbed.request?.url).toBe('https://api.example.com/api/property-images/1');
    expect(scrubbed.request?.headers?.['user-agent']).toBe('jest');
    expect(scrubbed.tags).toEqual({ jobId: 'job-1', errorCode: 'PROVIDER_AUTH' });
    expect(scrubbed.message).toBe('GET https://s3.example.com/o.jpg failed');
  });
});
