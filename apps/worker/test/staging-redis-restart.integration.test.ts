/**
 * Redis restarted empty (no persistence): the worker rebuilds its queue from the ledger as soon as
 * it reconnects, not at the next periodic repair. Redis down for a while: the log says so once per
 * connection and retry.
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

describe('Redis down for a while', () => {
  it('is a warning of each connection per retry, not an error of every queue and consumer relaying it', async () => {
    const worker = await stack.startWorker({ env: { VALKEY_URL: redis.url } });
    await waitUntil(async () => worker.log.lines().some((line) => line['msg'] === 'staging queue repair pass'), {
      what: 'the boot repair pass',
    });
    const before = worker.log.lines().length;
    const during = () => worker.log.lines().slice(before);
    const count = (msg: string) => during().filter((line) => line['msg'] === msg).length;

    await redis.stop();
    // Two retries of both connections (the staging and search consumers' and the ai queue's).
    await waitUntil(async () => count('redis connection error; reconnecting') >= 2 && count('ai queue redis error; reconnecting') >= 2, {
      what: 'the connections to retry twice',
    });
    await redis.restartEmpty();
    await waitUntil(async () => during().some((line) => String(line['msg']).includes('redis reconnected')), {
      what: 'the worker to reconnect',
    });

    const outage = during();
    expect(outage.filter((line) => line['level'] === 'error').map((line) => line['msg'])).toEqual([]);
    expect(outage.filter((line) => /queue error|consumer error|worker error/.test(String(line['msg'])))).toEqual([]);
    await worker.stop();
  }, 300_000);
});
