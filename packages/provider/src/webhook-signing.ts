/**
 * Standard Webhooks signing and verification, the scheme Replicate uses for prediction callbacks.
 * Verification is delegated to the `standardwebhooks` library: its Webhook.verify checks the
 * HMAC-SHA256 signature over `id.timestamp.body` in constant time and rejects timestamps more
 * than 5 minutes in the past *or* the future (WEBHOOK_TOLERANCE_IN_SECONDS = 300 in
 * standardwebhooks 1.1.1 dist/index.js), which is the docs/system.md 5.1 replay window. The api
 * checks a callback refused for its timestamp alone once more with that window placed on the
 * provider's measured clock (`providerClock`; docs/decisions/provider.md "The provider's clock").
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook, WebhookVerificationError as LibraryVerificationError } from 'standardwebhooks';
import { parsePrediction } from './provider-wire';
import type { Prediction } from './provider-wire';

// A type alias (not an interface) so it is assignable to header records with an index signature.
export type SignedWebhookHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

export type WebhookVerificationFailure =
  | 'missing_headers'
  | 'invalid_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'invalid_signature'
  | 'invalid_payload'
  | 'invalid_secret';

/** Any reason to reject a callback; the receiver answers 401 without touching a job. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  readonly reason: WebhookVerificationFailure;

  constructor(reason: WebhookVerificationFailure, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

const SECRET_PREFIX = 'whsec_';

/**
 * The library's Webhook with its HMAC computed by node:crypto instead of its pure-JavaScript
 * SHA-256 (about a tenth of the api's CPU per callback under load). Header parsing, the replay
 * window and the constant-time comparison stay the library's; `sign` returns what the library's
 * does for every input (webhook-signing.test.ts compares the two).
 */
class NativeHmacWebhook extends Webhook {
  readonly #key: Buffer;

  constructor(secret: string) {
    // The library decodes and checks the secret (empty, not base64) and throws on a bad one.
    super(secret);
    this.#key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  }

  override sign(msgId: string, timestamp: Date, payload: string | Buffer): string {
    // As the library: anything but text or a Buffer is refused, not stringified.
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) throw new Error('Expected payload to be of type string or Buffer.');
    const body = typeof payload === 'string' ? payload : payload.toString();
    const signed = `${msgId}.${Math.floor(timestamp.getTime() / 1000)}.${body}`;
    return `v1,${createHmac('sha256', this.#key).update(signed).digest('base64')}`;
  }
}

/** One verifier per secret: the api verifies every callback with the same one. */
const webhooks = new Map<string, Webhook>();

function createWebhook(secret: string): Webhook {
  let webhook = webhooks.get(secret);
  if (webhook !== undefined) return webhook;
  try {
    webhook = new NativeHmacWebhook(secret);
  } catch (cause) {
    // The library's message can quote parts of the key; say only what is wrong.
    throw new WebhookVerificationError('invalid_secret', 'webhook signing secret is empty or not base64 (expected whsec_...)', { cause });
  }
  // Rotation adds a secret now and then; tests make many. Bounded all the same.
  if (webhooks.size >= 16) webhooks.clear();
  webhooks.set(secret, webhook);
  return webhook;
}

/** Signs a body exactly as the provider does (used by the simulator side and by tests). */
export function signWebhook(options: { secret: string; webhookId: string; timestamp: Date; body: string }): SignedWebhookHeaders {
  const signature = createWebhook(options.secret).sign(options.webhookId, options.timestamp, options.body);
  return {
    'webhook-id': options.webhookId,
    'webhook-timestamp': String(Math.floor(options.timestamp.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

/** Node's IncomingHttpHeaders, a fetch Headers object, or a plain record. */
export type WebhookHeaderSource = Headers | Record<string, string | string[] | undefined>;

function readHeaders(source: WebhookHeaderSource): Record<string, string> {
  const wanted = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;
  const result: Record<string, string> = {};
  if (source instanceof Headers) {
    for (const name of wanted) {
      const value = source.get(name);
      if (value) result[name] = value;
    }
    return result;
  }
  for (const [key, value] of Object.entries(source)) {
    const name = key.toLowerCase();
    if (!(wanted as readonly string[]).includes(name)) continue;
    // A repeated header is ambiguous; refusing it is safer than picking one.
    if (Array.isArray(value)) {
      if (value.length === 1 && value[0]) result[name] = value[0];
      continue;
    }
    if (value) result[name] = value;
  }
  return result;
}

function reasonOf(error: Error): WebhookVerificationFailure {
  if (error.message === 'Missing required headers') return 'missing_headers';
  if (error.message === 'Message timestamp too old') return 'timestamp_too_old';
  if (error.message === 'Message timestamp too new') return 'timestamp_too_new';
  if (error.message === 'Invalid Signature Headers') return 'invalid_timestamp';
  return 'invalid_signature';
}

/**
 * The webhook-id of a callback (stable across the provider's redeliveries), for deduplicating
 * receipts. Read it only after verifyWebhook succeeded.
 */
export function webhookIdOf(headers: WebhookHeaderSource): string | undefined {
  return readHeaders(headers)['webhook-id'];
}

/**
 * The replay window placed on the provider's clock as measured (packages/domain clock-offset.ts
 * `webhookTimestampWindow`): a timestamp within `toleranceMs` of our now + `offsetMs` is fresh.
 */
export interface ProviderClockWindow {
  offsetMs: number;
  toleranceMs: number;
}

/** The library's signature comparison, for a timestamp it would refuse: any `v1,` entry may match. */
/** The three signature headers, once checked present. */
interface SignedHeaders {
  id: string;
  timestamp: string;
  signature: string;
}

function signatureMatches(webhook: Webhook, signed: SignedHeaders, timestamp: Date, rawBody: string | Buffer): boolean {
  const expected = Buffer.from(webhook.sign(signed.id, timestamp, rawBody).slice('v1,'.length));
  for (const versioned of signed.signature.split(' ')) {
    const [version, signature] = versioned.split(',');
    if (version !== 'v1' || signature === undefined) continue;
    const given = Buffer.from(signature);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
  }
  return false;
}

/** Checks the timestamp against `window` and the signature as the library does; returns the parsed body. */
function verifyOnProviderClock(webhook: Webhook, signed: SignedHeaders, rawBody: string | Buffer, window: ProviderClockWindow): unknown {
  const timestampMs = Number(signed.timestamp) * 1000;
  const providerNowMs = Date.now() + window.offsetMs;
  if (providerNowMs - timestampMs > window.toleranceMs) {
    throw new WebhookVerificationError('timestamp_too_old', 'Message timestamp too old for the provider clock as measured');
  }
  if (timestampMs - providerNowMs > window.toleranceMs) {
    throw new WebhookVerificationError('timestamp_too_new', 'Message timestamp too new for the provider clock as measured');
  }
  if (!signatureMatches(webhook, signed, new Date(timestampMs), rawBody)) {
    throw new WebhookVerificationError('invalid_signature', 'No matching signature found');
  }
  return JSON.parse(rawBody.toString());
}

/**
 * Verifies signature and replay window over the raw body, then parses the prediction it carries.
 * Pass the body bytes exactly as received (before any JSON parsing), or the HMAC will not match.
 * With `providerClock`, the window is placed on the provider's clock as measured instead of ours;
 * the library still decides every callback checked without it.
 */
export function verifyWebhook(options: {
  secret: string;
  rawBody: string | Buffer;
  headers: WebhookHeaderSource;
  providerClock?: ProviderClockWindow;
}): Prediction {
  const webhook = createWebhook(options.secret);
  const headers = readHeaders(options.headers);
  const id = headers['webhook-id'];
  const timestampHeader = headers['webhook-timestamp'];
  const signature = headers['webhook-signature'];
  if (!id || !timestampHeader || !signature) {
    throw new WebhookVerificationError('missing_headers', 'webhook-id, webhook-timestamp and webhook-signature headers are required');
  }
  // parseInt (as the library does) would accept "123abc"; a strict check keeps odd values out.
  if (!/^\d{1,12}$/.test(timestampHeader)) {
    throw new WebhookVerificationError('invalid_timestamp', 'webhook-timestamp must be whole seconds since the epoch');
  }
  let payload: unknown;
  try {
    payload =
      options.providerClock === undefined
        ? webhook.verify(options.rawBody, headers)
        : verifyOnProviderClock(webhook, { id, timestamp: timestampHeader, signature }, options.rawBody, options.providerClock);
  } catch (cause) {
    if (cause instanceof WebhookVerificationError) throw cause;
    if (cause instanceof LibraryVerificationError) throw new WebhookVerificationError(reasonOf(cause), cause.message, { cause });
    // The signature matched but the body is not JSON.
    throw new WebhookVerificationError('invalid_payload', 'signed webhook body is not valid JSON', { cause });
  }
  try {
    return parsePrediction(payload);
  } catch (cause) {
    throw new WebhookVerificationError('invalid_payload', 'signed webhook body is not a prediction', { cause });
  }
}
