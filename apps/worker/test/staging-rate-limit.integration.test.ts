import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnWorker } from './support/worker-process';
import type { WorkerProcess } from './support/worker-process';
import { startTestStack } from './support/test-stack';
import type { TestStack } from './support/test-stack';

const LIMIT = 6;
const WINDOW_MS = 3_000;
const JOBS = 15;

let stack: TestStack;
const children: WorkerProcess[] = [];

beforeAll(async () => {
  stack = await startTestStack({ simCompletionDelayMs: 200 });
});

afterAll(async () => {
  for (const child of children) await child.kill();
  await stack.close();
});

/** Largest number of creation times inside any half-open window [t, t + windowMs). */
export function maxInSlidingWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end += 1) {
    while (sorted[end]! - sorted[start]! >= windowMs) start += 1;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

describe('queue-wide paid-start limiter', () => {
  it('the window counter itself can fail: it sees 7 creations inside one window', () => {
    expect(maxInSlidingWindow([0, 100, 200, 300, 400, 500, 2_999], 3_000)).toBe(7);
    expect(maxInSlidingWindow([0, 100, 200, 300, 400, 500, 3_000], 3_000)).toBe(6);
  });

  it('two worker processes on one queue never exceed the limit in any sliding window', async () => {
    const env = stack.env({
      AI_STAGING_RATE_LIMIT_PER_MINUTE: String(LIMIT),
      AI_STAGING_RATE_LIMIT_WINDOW_MS: String(WINDOW_MS),
      AI_STAGING_CONCURRENCY: '4',
    });
    // A generous prediction timeout: 15 renders on two cores make the simulator slow, and a
    // timeout would buy attempt 2 legitimately, which is not what this test is about.
    const settings = { predictionTimeoutMs: 60_000 };
    children.push(...(await Promise.all([spawnWorker({ env, settings }), spawnWorker({ env, settings })])));
    // A few 429s on the way: they must back off without spending attempts.
    await stack.faults(['http_429', 'http_429']);
    const jobs = await stack.seedJobs(JOBS);
    for (const { jobId } of jobs) await stack.waitForStatus(jobId, ['SUCCESS', 'FAILED', 'CANCELED']);

    const statuses = await stack.db.aiJob.findMany({
      where: { id: { in: jobs.map((j) => j.jobId) } },
      select: { status: true },
    });
    expect(statuses.every((s) => s.status === 'SUCCESS')).toBe(true);
    const attempts = await stack.db.aiProviderAttempt.findMany({
      where: { aiJobId: { in: jobs.map((j) => j.jobId) } },
    });
    expect(attempts).toHaveLength(JOBS);
    expect(attempts.every((a) => a.attemptNumber === 1 && a.status === 'SUCCEEDED')).toBe(true);

    const created = (await stack.predictions()).map((p) => Date.parse(p.created_at));
    expect(created).toHaveLength(JOBS);
    expect(maxInSlidingWindow(created, WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
    // Both processes really bought (the limit is shared, not per process).
    const buyers = children.map((c) => c.lines().filter((l) => l['event'] === 'prediction_created').length);
    expect(buyers.every((n) => n > 0)).toBe(true);
    expect(buyers.reduce((a, b) => a + b, 0)).toBe(JOBS);
  }, 300_000);
});
