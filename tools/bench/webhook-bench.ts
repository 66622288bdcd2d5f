// Webhook receiver benchmark: verified provider callbacks per second and latency percentiles of
// one api process (apps/api/src/main.ts, real Postgres and Redis) against two baselines measured
// in the same run (tools/bench/webhook-bare-server.ts): a bare Express handler that commits the
// same receipt INSERT (the floor) and one that answers at once (no-op). Targets: api
// req/s >= 0.8x the floor's and >= 0.5x the no-op's, api p99 <= 2x the floor's.
//
//   node_modules/.bin/tsx tools/bench/webhook-bench.ts [--seconds 4] [--rounds 3] [--concurrency 32]
//
// Each request carries a fresh webhook-id (a new receipt row) for one ACTIVE attempt whose job
// is waiting in the queue, i.e. the full path: verify, receipt statement, wake, 204. The three
// servers take turns for `rounds` rounds so that a burst of load from elsewhere on the machine
// hits all of them alike; each one's figures pool all of its rounds.
import { randomUUID } from 'node:crypto';
import { TEST_SECRETS } from '@staging/config/test-env';
import { createOriginalImage, createProperty, createUser } from '@staging/db/testing/factories';
import { signWebhook } from '@staging/provider/webhook-signing';
import { createStagingQueue, enqueueStagingJob } from '@staging/services/staging/staging-queue';
import { openBenchStack, parseLoadArgs } from './bench-stack';
import { printFigure } from './figures';
import { freePort } from '@staging/stack/free-port';
import { loadInTurns, printResults, startProcess, summarize, waitForPort } from './http-load';
import type { LoadRequest, Result, Server } from './http-load';
import { present } from './present';

const SECRET = TEST_SECRETS.PROVIDER_WEBHOOK_SIGNING_SECRET;

/** A freshly signed callback with a new webhook-id (so a new receipt row) for the attempt. */
function signedCallback(attemptId: string, predictionId: string): () => LoadRequest {
  const body = JSON.stringify({ id: predictionId, status: 'processing', output: null, error: null, created_at: new Date().toISOString() });
  return () => ({
    method: 'POST',
    path: `/api/webhooks/provider/staging/${attemptId}`,
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      ...signWebhook({ secret: SECRET, webhookId: `msg_${randomUUID()}`, timestamp: new Date(), body }),
    },
    body,
  });
}

async function main(): Promise<void> {
  const stack = await openBenchStack('webhook-bench');
  const { db, redis, queueSuffix } = stack;
  try {
    const owner = await createUser(db);
    const property = await createProperty(db, { ownerAgentId: owner.id });
    const original = await createOriginalImage(db, { propertyId: property.id });
    const predictionId = `pred_${randomUUID().replace(/-/g, '')}`;
    const job = await db.aiJob.create({
      data: {
        type: 'ROOM_STAGING',
        status: 'PROCESSING',
        dedupeKey: `${original.id}:MODERN`,
        propertyId: property.id,
        staging: {
          create: {
            originalImageId: original.id,
            propertyId: property.id,
            canonicalRoomType: 'LIVING_ROOM',
            canonicalStyle: 'MODERN',
            submittedStyle: 'MODERN',
            providerModel: 'openai/gpt-image-2',
            promptVersion: 'bench',
            prompt: 'bench',
            quality: 'medium',
            aspectRatio: '1:1',
            outputFormat: 'jpeg',
            outputCompression: 92,
          },
        },
        attempts: { create: { attemptNumber: 1, status: 'ACTIVE', providerPredictionId: predictionId } },
      },
      select: { id: true, attempts: { select: { id: true } } },
    });
    const attemptId = present(job.attempts[0], 'the seeded attempt').id;
    // Waiting in the queue: every wake-up finds it queued, the steady state while a worker is busy.
    const queue = createStagingQueue(redis, queueSuffix);
    await enqueueStagingJob(queue, job.id);

    const bare = async (name: string, mode: 'noop' | 'insert'): Promise<Server> => {
      const port = await freePort();
      const child = startProcess(stack.start, 'tools/bench/webhook-bare-server.ts', { PORT: String(port), BARE_MODE: mode, DATABASE_URL: stack.databaseUrl });
      await waitForPort(port, '/');
      return { name, port, pid: present(child.process.pid, `${name} pid`) };
    };
    const servers = [await bare('bare express no-op', 'noop'), await bare('bare express INSERT', 'insert'), await stack.startApi('api verified webhook')];

    const options = parseLoadArgs();
    console.log(`warmup ${options.warmupSeconds}s each, then ${options.rounds} rounds of ${options.seconds}s each at concurrency ${options.concurrency} (closed loop, keep-alive)`);
    const samples = await loadInTurns(servers, { ...options, next: signedCallback(attemptId, predictionId) });
    const [noop, floor, verified] = samples.map(summarize) as [Result, Result, Result];
    const receipts = await db.aiProviderWebhookReceipt.count({ where: { providerAttemptId: attemptId } });
    const results = [noop, floor, verified];
    printResults(servers.map((server, i) => ({ name: server.name, result: present(results[i], `${server.name} result`) })));
    console.log(`receipts written: ${receipts} (one per 2xx of the INSERT floor and the api, warmup included)`);
    printFigure({ name: 'webhook req/s vs INSERT floor', value: verified.rps / floor.rps, target: 0.8, better: 'higher' });
    printFigure({ name: 'webhook req/s vs no-op handler', value: verified.rps / noop.rps, target: 0.5, better: 'higher' });
    printFigure({ name: 'webhook p99 vs INSERT floor p99', value: verified.p99 / floor.p99, target: 2, better: 'lower' });
    await queue.close();
  } finally {
    await stack.close();
  }
}

await main();
