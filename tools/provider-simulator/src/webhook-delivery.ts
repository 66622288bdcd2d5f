/**
 * Sends prediction callbacks the way Replicate does: Standard Webhooks headers (webhook-id
 * `msg_...`, webhook-timestamp in seconds, webhook-signature `v1,<base64 HMAC-SHA256>` over
 * `id.timestamp.body` with the whsec_ key), the prediction JSON as body, and redelivery (of
 * terminal callbacks only; the caller passes the schedule) on a non-2xx answer or a transport
 * failure with the SAME webhook-id and a fresh timestamp/signature. Signing uses the standardwebhooks library directly (not
 * @staging/provider), so the simulator is an independent check of the receiver.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { ProviderClock } from './provider-clock';

export type WebhookEvent = 'start' | 'output' | 'logs' | 'completed';

export interface WebhookDeliveryAttempt {
  event: WebhookEvent;
  webhookId: string;
  /** 1 for the first try, 2+ for redeliveries; a duplicate_webhook copy restarts at 1. */
  attempt: number;
  predictionStatus: string;
  /** HTTP status of the receiver, or null when the request failed. */
  responseStatus: number | null;
  error: string | null;
  sentAt: string;
  /** What follows this try: nothing (delivered), a redelivery, or nothing ever again. */
  next: 'none' | 'retry' | 'gave_up';
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function randomToken(length: number): string {
  const bytes = randomBytes(length);
  let result = '';
  for (const byte of bytes) result += ALPHABET[byte % ALPHABET.length];
  return result;
}

export function newWebhookId(): string {
  return `msg_${randomToken(27)}`;
}

export interface DeliveryOptions {
  event: WebhookEvent;
  url: string;
  webhookId: string;
  body: string;
  predictionStatus: string;
  /** Waits between tries; its length is the number of redeliveries. Empty = no redelivery. */
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  record: (attempt: WebhookDeliveryAttempt) => void;
  /** Aborted when the simulator stops or resets, ending pending redeliveries. */
  signal: AbortSignal;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

export function createWebhookSender(secret: string, clock: ProviderClock) {
  const signer = new Webhook(secret);

  /** Delivers one callback, redelivering until a 2xx or the retry budget is spent. */
  return async function deliver(options: DeliveryOptions): Promise<boolean> {
    const tries = options.retryDelaysMs.length + 1;
    for (let attempt = 1; attempt <= tries && !options.signal.aborted; attempt += 1) {
      const now = clock.now();
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'provider-simulator (Replicate-compatible webhook)',
        'webhook-id': options.webhookId,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signer.sign(options.webhookId, now, options.body),
      };
      let responseStatus: number | null = null;
      let error: string | null = null;
      try {
        const response = await fetch(options.url, {
          method: 'POST',
          headers,
          body: options.body,
          redirect: 'manual',
          signal: AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]),
        });
        responseStatus = response.status;
        await response.arrayBuffer().catch(() => undefined);
      } catch (cause) {
        error = cause instanceof Error ? cause.message : String(cause);
      }
      if (options.signal.aborted) return false;
      const delivered = responseStatus !== null && responseStatus >= 200 && responseStatus < 300;
      const wait = options.retryDelaysMs[attempt - 1];
      options.record({
        event: options.event,
        webhookId: options.webhookId,
        attempt,
        predictionStatus: options.predictionStatus,
        responseStatus,
        error,
        sentAt: now.toISOString(),
        next: delivered ? 'none' : wait === undefined ? 'gave_up' : 'retry',
      });
      if (delivered) return true;
      if (wait !== undefined) await sleep(wait, options.signal);
    }
    return false;
  };
}
