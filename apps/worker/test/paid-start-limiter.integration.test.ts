import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { slidingWindowPeak } from '@staging/domain/sliding-window';
import { startTestStack } from './support/test-stack';
import type { TestStack } from './support/test-stack';

const LIMIT = 6;
const WINDOW_MS = 3_000;
const JOBS = 15;

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ simCompletionDelayMs: 200 });
});

afterAll(async () => {
  await stack.close();
});

describe('queue-wide paid-start limiter', () => {
  it('two worker processes on one queue never exceed the limit in any sliding window', async () => {
    const env = stack.env({
      AI_STAGING_RATE_LIMIT_PER_MINUTE: String(LIMIT),
      AI_STAGING_RATE_LIMIT_WINDOW_MS: String(WINDOW_MS),
      AI_STAGING_CONCURRENCY: '4',
    });
    // A generous prediction timeout: 15 renders on two cores make the simulator slow, and a
    // timeout would buy attempt 2 legitimately, which is not what this test is about.
    const settings = { predictionTimeoutMs: 60_000 };
    const children = await Promise.all([stack.spawnReadyWorker({ env, settings }), stack.spawnReadyWorker({ env, settings })]);
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
    expect(slidingWindowPeak(created, WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
    // Both processes really bought (the limit is shared, not per process).
    const buyers = children.map((c) => c.lines().filter((l) => l['event'] === 'prediction_created').length);
    expect(buyers.every((n) => n > 0)).toBe(true);
    expect(buyers.reduce((a, b) => a + b, 0)).toBe(JOBS);
  }, 300_000);
});
