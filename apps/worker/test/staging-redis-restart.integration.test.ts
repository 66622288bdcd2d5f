/**
 * Redis restarted empty (no persistence): the worker rebuilds its queue from the ledger as soon as
 * it reconnects, not at the next periodic repair.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startPrivateRedis } from '@staging/stack/private-redis';
import type { PrivateRedis } from '@staging/stack/private-redis';
import { startTestStack, waitUntil } from './support/test-stack';
import type { TestStack } from './support/test-stack';

let stack: TestStack;
let redis: PrivateRedis;

beforeAll(async () => {
  stack = await startTestStack();
  redis = await startPrivateRedis();
});

afterAll(async () => {
  await stack.close();
  await redis.stop();
});

describe('Redis restarted empty', () => {
  it('the queue is repaired on reconnect, so a job only the ledger knows finishes without waiting for the periodic pass', async () => {
    // The periodic repair is far beyond the hang guard: only the reconnect can bring the job back.
    const worker = await stack.startWorker({ env: { VALKEY_URL: redis.url }, overrides: { repairIntervalMs: 600_000 } });
    // The boot pass has run; the job below reaches only the test's own queue store, never this
    // worker's Redis, as if Redis had lost it.
    await waitUntil(async () => worker.log.lines().some((line) => line['msg'] === 'staging queue repair pass'), {
      what: 'the boot repair pass',
    });
    const { jobId } = await stack.seedJob();

    await redis.restartEmpty();
    await waitUntil(async () => worker.log.lines().some((line) => String(line['msg']).includes('redis reconnected')), {
      what: 'the worker to reconnect',
    });
    expect(await stack.waitForStatus(jobId, ['SUCCESS', 'FAILED', 'CANCELED'])).toBe('SUCCESS');
    expect(await stack.purchasesFor(jobId)).toHaveLength(1);
    await worker.stop();
  }, 300_000);
});
