import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { WorkerProcess } from './support/worker-process';
import { startTcpProxy } from './support/tcp-proxy';
import { startTestStack, waitUntil } from './support/test-stack';
import type { SeededJob, TestStack } from './support/test-stack';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterEach(async () => {
  await stack.stopWorkers();
}, 300_000);

afterAll(async () => {
  await stack.close();
}, 300_000);

async function waitForLog(child: WorkerProcess, message: string): Promise<void> {
  await waitUntil(
    async () => child.lines().some((l) => l['msg'] === message) || child.stderr().includes(message),
    {
      what: `"${message}" from the child worker`,
    },
  );
}

describe('a blocked event loop (BullMQ re-runs the processor for the same job)', () => {
  it('still buys one prediction per attempt: the Postgres job lock fences the second run', async () => {
    const blocked = await stack.spawnWorker({
      // Blocked well past the 1 s BullMQ lock, long enough for another worker's stalled check
      // (two passes) to hand the job to a second run.
      args: ['--test-block-at=after-reserve:9000'],
      settings: { lockDurationMs: 1_000, stalledIntervalMs: 500 },
    });
    try {
      await waitForLog(blocked, 'worker started');
      const { jobId } = await stack.seedJob();
      await waitForLog(blocked, 'blocking the event loop at after-reserve');
      // A second worker on the same queue finds the job's BullMQ lock expired and runs it again.
      const rescuer = await stack.startWorker({
        overrides: { consumer: { lockDurationMs: 1_000, stalledIntervalMs: 500 } },
      });
      await stack.waitForStatus(jobId, ['SUCCESS', 'FAILED', 'CANCELED']);
      expect((await stack.db.aiJob.findUniqueOrThrow({ where: { id: jobId } })).status).toBe('SUCCESS');
      const attempts = await stack.db.aiProviderAttempt.findMany({ where: { aiJobId: jobId } });
      expect(attempts.map((a) => [a.attemptNumber, a.status])).toEqual([[1, 'SUCCEEDED']]);
      expect(await stack.purchasesFor(jobId)).toHaveLength(1);
      // The re-run really happened and was turned away by the job lock.
      expect(
        rescuer.log
          .lines()
          .some(
            (l) => l['jobId'] === jobId && l['msg'] === 'job lock held by another run; re-delivering later',
          ),
      ).toBe(true);
      await rescuer.stop();
    } finally {
      await blocked.kill();
    }
  }, 300_000);
});

describe('SIGTERM during boot', () => {
  it('is taken at once, and once the boot is done the worker drains and exits 0', async () => {
    // The boot pauses after config and test hooks, before any connection, so the signal surely
    // arrives mid-boot however fast or slow this machine is.
    const child = await stack.spawnWorker({ settings: { bootDelayMs: 3_000 } });
    await waitForLog(child, 'test hooks enabled from the command line');
    child.child.kill('SIGTERM');
    expect(await child.exited).toEqual({ code: 0, signal: null });
    const messages = child.lines().map((l) => [l['msg'], l['booting'] ?? l['drained']]);
    expect(messages).toContainEqual(['shutting down', true]);
    expect(messages).toContainEqual(['worker stopped', true]);
    expect(messages.findIndex(([msg]) => msg === 'shutting down')).toBeLessThan(
      messages.findIndex(([msg]) => msg === 'worker started'),
    );
  });
});

describe('SIGTERM with jobs in flight', () => {
  it('stops taking jobs, parks the active ones, exits 0 within the grace period; a new worker finishes them', async () => {
    const child = await stack.spawnWorker();
    let jobs: SeededJob[] = [];
    try {
      await waitForLog(child, 'worker started');
      const health = await fetch(`http://127.0.0.1:${child.port}/healthz`);
      expect(health.status).toBe(200);
      // Ready once the database, Redis and the consumer answer (the consumer connects asynchronously).
      expect(await child.ready()).toMatchObject({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });

      await stack.faults([1, 2, 3].map(() => ({ name: 'slow' as const, delayMs: 4_000 })));
      jobs = await stack.seedJobs(3);
      await waitUntil(
        async () =>
          (await stack.db.aiProviderAttempt.count({
            where: { aiJobId: { in: jobs.map((j) => j.jobId) }, status: 'ACTIVE' },
          })) === 3,
        {
          what: 'three running predictions',
        },
      );
      child.child.kill('SIGTERM');
      expect(await child.exited).toEqual({ code: 0, signal: null });
      // drained: true is the worker's own word that every active job was parked inside its grace
      // period (a worker that ran out of grace reports drained: false).
      expect(child.lines().some((l) => l['msg'] === 'worker stopped' && l['drained'] === true)).toBe(true);
    } finally {
      await child.kill();
    }

    const next = await stack.startWorker();
    for (const { jobId } of jobs) await stack.waitForStatus(jobId, ['SUCCESS', 'FAILED', 'CANCELED']);
    for (const { jobId } of jobs) {
      expect((await stack.db.aiJob.findUniqueOrThrow({ where: { id: jobId } })).status).toBe('SUCCESS');
      expect(await stack.purchasesFor(jobId)).toHaveLength(1);
    }
    await next.stop();
  }, 300_000);
});

describe('Redis outage', () => {
  it('the worker resumes by itself after an outage longer than its drain delay and the backlog drains', async () => {
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: 6379 });
    try {
      const worker = await stack.startWorker({ env: { VALKEY_URL: proxy.url } });
      const [first] = await stack.seedJobs(1);
      await stack.waitForStatus(first!.jobId, ['SUCCESS']);

      await proxy.cut();
      const backlog = await stack.seedJobs(3);
      // Longer than BullMQ's drain delay (5 s) so the blocking fetch times out during the outage.
      await new Promise((resolve) => setTimeout(resolve, 6_500));
      for (const { jobId } of backlog)
        expect((await stack.db.aiJob.findUniqueOrThrow({ where: { id: jobId } })).status).toBe('PENDING');
      await proxy.restore();

      for (const { jobId } of backlog) await stack.waitForStatus(jobId, ['SUCCESS']);
      for (const { jobId } of backlog) expect(await stack.purchasesFor(jobId)).toHaveLength(1);
      await worker.stop();
    } finally {
      await proxy.close();
    }
  }, 300_000);

  // Every close step is bounded inside the worker; the Jest timeout only guards against a hang.
  it('a stop while Redis is unreachable still ends', async () => {
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: 6379 });
    try {
      const worker = await stack.startWorker({ env: { VALKEY_URL: proxy.url } });
      await worker.app.consumer.worker.waitUntilReady();
      await proxy.cut();
      await expect(worker.stop()).resolves.toBeUndefined();
    } finally {
      await proxy.close();
    }
  }, 300_000);
});
