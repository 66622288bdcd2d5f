import { afterEach, describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { signWebhook, verifyWebhook, webhookIdOf, WebhookVerificationError } from './webhook-signing';
import type { WebhookVerificationFailure } from './webhook-signing';

// Test vector of the Standard Webhooks reference libraries.
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  webhookId: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const prediction = {
  id: 'p1abc',
  status: 'succeeded',
  output: ['http://127.0.0.1:4200/files/f1.jpeg'],
  error: null,
  created_at: '2026-11-22T10:00:00.000Z',
  completed_at: '2026-11-22T10:00:01.000Z',
};
const body = JSON.stringify(prediction);

function signedNow(offsetSeconds = 0, overrides: { body?: string; secret?: string } = {}) {
  return signWebhook({
    secret: overrides.secret ?? SECRET,
    webhookId: 'msg_test1',
    timestamp: new Date(Date.now() + offsetSeconds * 1000),
    body: overrides.body ?? body,
  });
}

function expectFailure(run: () => unknown, reason: WebhookVerificationFailure) {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(WebhookVerificationError);
  expect((caught as WebhookVerificationError).reason).toBe(reason);
}

afterEach(() => {
  jest.useRealTimers();
});

describe('signWebhook', () => {
  it('reproduces the Standard Webhooks test vector', () => {
    const headers = signWebhook({
      secret: VECTOR.secret,
      webhookId: VECTOR.webhookId,
      timestamp: new Date(VECTOR.timestamp * 1000),
      body: VECTOR.body,
    });
    expect(headers).toEqual({
      'webhook-id': VECTOR.webhookId,
      'webhook-timestamp': String(VECTOR.timestamp),
      'webhook-signature': VECTOR.signature,
    });
  });

  it("signs and verifies every id, time and body exactly as the library's own HMAC does", () => {
    fc.assert(
      fc.property(
        // The same key with and without the whsec_ prefix (both forms are accepted).
        fc.constantFrom(SECRET, SECRET.slice('whsec_'.length)),
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        fc.string({ unit: 'binary', maxLength: 300 }),
        (secret, webhookId, ms, text) => {
          const library = new Webhook(secret);
          const timestamp = new Date(ms);
          expect(signWebhook({ secret, webhookId, timestamp, body: text })['webhook-signature']).toBe(
            library.sign(webhookId, timestamp, text),
          );
          // A Buffer body the library signed just now: the signature matches, so what is refused
          // is the body (not a prediction), never the signature.
          const now = new Date();
          const rawBody = Buffer.from(text);
          const headers = {
            'webhook-id': webhookId,
            'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
            'webhook-signature': library.sign(webhookId, now, rawBody),
          };
          expectFailure(() => verifyWebhook({ secret, rawBody, headers }), 'invalid_payload');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('truncates sub-second timestamps to whole seconds, as the signature does', () => {
    const headers = signWebhook({ secret: SECRET, webhookId: 'msg_x', timestamp: new Date(1_700_000_000_999), body: '{}' });
    expect(headers['webhook-timestamp']).toBe('1700000000');
  });
});

describe('verifyWebhook', () => {
  it('accepts the test vector at its own time (the library checks the clock)', () => {
    jest.useFakeTimers({ now: VECTOR.timestamp * 1000, doNotFake: ['nextTick', 'setImmediate'] });
    // The vector body is not a prediction, so a valid signature ends in invalid_payload, not in
    // a signature or timestamp failure.
    expectFailure(
      () =>
        verifyWebhook({
          secret: VECTOR.secret,
          rawBody: VECTOR.body,
          headers: {
            'webhook-id': VECTOR.webhookId,
            'webhook-timestamp': String(VECTOR.timestamp),
            'webhook-signature': VECTOR.signature,
          },
        }),
      'invalid_payload',
    );
  });

  it('returns the parsed prediction for a fresh, correctly signed body', () => {
    const result = verifyWebhook({ secret: SECRET, rawBody: body, headers: signedNow() });
    expect(result).toMatchObject({ id: 'p1abc', status: 'succeeded', output: prediction.output, error: null });
  });

  it('accepts a Buffer body and a fetch Headers object with mixed-case names', () => {
    const headers = signedNow();
    const fetchHeaders = new Headers({
      'Webhook-Id': headers['webhook-id'],
      'Webhook-Timestamp': headers['webhook-timestamp'],
      'Webhook-Signature': headers['webhook-signature'],
    });
    expect(verifyWebhook({ secret: SECRET, rawBody: Buffer.from(body), headers: fetchHeaders }).id).toBe('p1abc');
    expect(webhookIdOf(fetchHeaders)).toBe('msg_test1');
  });

  it('accepts a signature list where one of several signatures matches (key rotation)', () => {
    const headers = signedNow();
    const rotated = { ...headers, 'webhook-signature': `v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA= ${headers['webhook-signature']}` };
    expect(verifyWebhook({ secret: SECRET, rawBody: body, headers: rotated }).id).toBe('p1abc');
  });

  it('rejects a tampered body', () => {
    const headers = signedNow();
    const tampered = body.replace('succeeded', 'failed');
    expectFailure(() => verifyWebhook({ secret: SECRET, rawBody: tampered, headers }), 'invalid_signature');
  });

  it('rejects a body re-serialised with different whitespace (raw bytes matter)', () => {
    const headers = signedNow();
    expectFailure(() => verifyWebhook({ secret: SECRET, rawBody: JSON.stringify(prediction, null, 2), headers }), 'invalid_signature');
  });

  it('rejects a different webhook-id than the one signed', () => {
    const headers = { ...signedNow(), 'webhook-id': 'msg_other' };
    expectFailure(() => verifyWebhook({ secret: SECRET, rawBody: body, headers }), 'invalid_signature');
  });

  it('rejects a signature made with another secret', () => {
    const headers = signedNow(0, { secret: 'whsec_' + Buffer.from('another secret of 32 bytes!!!!!!').toString('base64') });
    expectFailure(() => verifyWebhook({ secret: SECRET, rawBody: body, headers }), 'invalid_signature');
  });

  it('rejects a timestamp six minutes old', () => {
    expectFailure(() => verifyWebhook({ secret: SECRET, rawBody: body, headers: signedNow(-6 * 60) }), 'timestamp_too_old');
  });

  it('rejects a timestamp six minutes in the future', () => {
    expectFailure(() => verifyWebhook({ secret: SECRET, rawBody: body, headers: signedNow(6 * 60) }), 'timestamp_too_new');
  });

  it('accepts timestamps four minutes old or ahead (inside the window)', () => {
    expect(verifyWebhook({ secret: SECRET, rawBody: body, headers: signedNow(-4 * 60) }).id).toBe('p1abc');
    expect(verifyWebhook({ secret: SECRET, rawBody: body, headers: signedNow(4 * 60) }).id).toBe('p1abc');
  });

  it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const)('rejects a request without %s', (name) => {
    const headers: Record<string, string> = { ...signedNow() };
    delete headers[name];
    expectFailure(() => verifyWebhook({ secret: SECRET, rawBody: body, headers }), 'missing_headers');
  });

  it('rejects a request with no headers at all', () => {
    expectFailure(() => verifyWebhook({ secret: SECRET, rawBody: body, headers: {} }), 'missing_headers');
  });

  it('rejects a non-numeric timestamp', () => {
    const headers = { ...signedNow(), 'webhook-timestamp': `${Math.floor(Date.now() / 1000)}abc` };
    expectFailure(() => verifyWebhook({ secret: SECRET, rawBody: body, headers }), 'invalid_timestamp');
  });

  it('rejects a repeated signature header rather than guessing which one counts', () => {
    const headers = signedNow();
    const repeated = { ...headers, 'webhook-signature': [headers['webhook-signature'], 'v1,x'] };
    expectFailure(() => verifyWebhook({ secret: SECRET, rawBody: body, headers: repeated }), 'missing_headers');
  });

  it('rejects a correctly signed body that is not a prediction', () => {
    const other = JSON.stringify({ hello: 'world' });
    expectFailure(() => verifyWebhook({ secret: SECRET, rawBody: other, headers: signedNow(0, { body: other }) }), 'invalid_payload');
  });

  it('reports an unusable secret without echoing it', () => {
    let caught: unknown;
    try {
      verifyWebhook({ secret: 'whsec_', rawBody: body, headers: signedNow() });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(WebhookVerificationError);
    expect((caught as WebhookVerificationError).reason).toBe('invalid_secret');
  });
});

describe('verifyWebhook on the provider clock as measured', () => {
  // The provider's clock 10 minutes behind ours, measured to within a second.
  const providerClock = { offsetMs: -10 * 60_000, toleranceMs: 5 * 60_000 + 1_000 };

  it('accepts a fresh callback of a provider 10 minutes behind that the plain window refuses', () => {
    const headers = signedNow(-10 * 60);
    expectFailure(() => verifyWebhook({ secret: SECRET, rawBody: body, headers }), 'timestamp_too_old');
    expect(verifyWebhook({ secret: SECRET, rawBody: body, headers, providerClock }).id).toBe('p1abc');
  });

  it('keeps the 5-minute window around the provider clock: six minutes older or newer is refused', () => {
    expectFailure(() => verifyWebhook({ secret: SECRET, rawBody: body, headers: signedNow(-16 * 60), providerClock }), 'timestamp_too_old');
    expectFailure(() => verifyWebhook({ secret: SECRET, rawBody: body, headers: signedNow(-4 * 60), providerClock }), 'timestamp_too_new');
  });

  it('checks the signature as the library does', () => {
    const headers = signedNow(-10 * 60);
    const tampered = JSON.stringify({ ...prediction, status: 'failed' });
    expectFailure(() => verifyWebhook({ secret: SECRET, rawBody: tampered, headers, providerClock }), 'invalid_signature');
    expectFailure(() => verifyWebhook({ secret: SECRET, rawBody: body, headers: { ...headers, 'webhook-id': 'msg_other' }, providerClock }), 'invalid_signature');
    // Any of several space-separated signatures may match, as in the library.
    const several = { ...headers, 'webhook-signature': `v1,bm90IGl0 ${headers['webhook-signature']}` };
    expect(verifyWebhook({ secret: SECRET, rawBody: Buffer.from(body), headers: several, providerClock }).id).toBe('p1abc');
    const notJson = 'not json';
    expectFailure(
      () => verifyWebhook({ secret: SECRET, rawBody: notJson, headers: signedNow(-10 * 60, { body: notJson }), providerClock }),
      'invalid_payload',
    );
  });
});
