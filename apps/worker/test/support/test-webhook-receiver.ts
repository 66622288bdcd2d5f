/**
 * A stand-in for the api service's webhook receiver (owned by the API engineer), so worker tests
 * can exercise the wake-up path end to end: verify the signature over the raw body, record an
 * ai_provider_webhook_receipts row (webhookId unique, so redeliveries record nothing new), answer,
 * then wake the job's delayed queue message. Unverifiable requests get 401.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Db } from '@staging/db/client';
import { verifyWebhook, webhookIdOf } from '@staging/provider/webhook-signing';
import { wakeStagingJob } from '@staging/services/staging/staging-queue';
import type { StagingQueue } from '@staging/services/staging/staging-queue';

const ROUTE = /^\/api\/webhooks\/provider\/staging\/([^/?]+)$/;

export interface TestWebhookReceiver {
  origin: string;
  received: { attemptId: string; status: number }[];
  /** While false, callbacks are answered 503 without recording (the api is down). */
  setAvailable(available: boolean): void;
  stop(): Promise<void>;
}

export async function startTestWebhookReceiver(options: {
  db: Db;
  queue: () => StagingQueue;
  secret: string;
}): Promise<TestWebhookReceiver> {
  const received: TestWebhookReceiver['received'] = [];
  let available = true;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const match = ROUTE.exec(req.url ?? '');
        const attemptId = decodeURIComponent(match?.[1] ?? '');
        const respond = (status: number) => {
          received.push({ attemptId, status });
          res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
        };
        // The api's liveness probe on the callback origin (the worker asks before ruling a purchase out).
        if (req.method === 'GET' && req.url === '/healthz') return void res.writeHead(available ? 200 : 503).end();
        if (req.method !== 'POST' || match === null) return respond(404);
        if (!available) return respond(503);
        let prediction;
        try {
          prediction = verifyWebhook({
            secret: options.secret,
            rawBody: Buffer.concat(chunks),
            headers: req.headers,
          });
        } catch {
          return respond(401);
        }
        const webhookId = webhookIdOf(req.headers) ?? '';
        const timestamp = new Date(Number(req.headers['webhook-timestamp']) * 1000);
        const attempt = await options.db.aiProviderAttempt.findUnique({
          where: { id: attemptId },
          select: { aiJobId: true },
        });
        if (attempt === null) return respond(404);
        await options.db.aiProviderWebhookReceipt.createMany({
          data: [
            {
              webhookId,
              providerAttemptId: attemptId,
              providerPredictionId: prediction.id,
              providerStatus: prediction.status,
              webhookTimestamp: timestamp,
            },
          ],
          skipDuplicates: true,
        });
        respond(204);
        await wakeStagingJob(options.queue(), attempt.aiJobId).catch(() => undefined);
      })().catch((error: unknown) => {
        process.stderr.write(`test webhook receiver failed: ${String(error)}\n`);
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    setAvailable: (value) => {
      available = value;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
