import { randomUUID } from 'node:crypto';
import { TEST_SECRETS } from '@staging/config/test-env';
import { signWebhook } from '@staging/provider/webhook-signing';

/** A prediction body as the provider signs it. */
export function predictionBody(id: string, status = 'succeeded'): string {
  return JSON.stringify({ id, status, output: ['https://provider.example/out.jpg'], error: null, created_at: new Date().toISOString() });
}

export interface SendOptions {
  body: string;
  secret?: string;
  timestamp?: Date;
  webhookId?: string;
  path?: string;
  headers?: Record<string, string>;
  /** Bytes actually sent, when they differ from the signed body. */
  sentBody?: string;
  unsigned?: boolean;
  /** Sent as a stream, so without Content-Length (chunked). */
  chunked?: boolean;
}

/** POSTs a provider callback for `attemptId` to the api at `apiUrl`, signed with the test secret unless told otherwise. */
export async function sendWebhook(apiUrl: string, attemptId: string, options: SendOptions): Promise<Response> {
  const signed = signWebhook({
    secret: options.secret ?? TEST_SECRETS.PROVIDER_WEBHOOK_SIGNING_SECRET,
    webhookId: options.webhookId ?? `msg_${randomUUID()}`,
    timestamp: options.timestamp ?? new Date(),
    body: options.body,
  });
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(options.unsigned === true ? {} : signed),
    ...options.headers,
  };
  const bytes = options.sentBody ?? options.body;
  return fetch(`${apiUrl}${options.path ?? `/api/webhooks/provider/staging/${attemptId}`}`, {
    method: 'POST',
    headers,
    body: options.chunked === true ? new Blob([bytes]).stream() : bytes,
    // Required by fetch for a stream body.
    ...(options.chunked === true ? { duplex: 'half' } : {}),
    redirect: 'manual',
  } as RequestInit);
}
