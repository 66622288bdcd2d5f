import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { FaultName } from '@staging/provider-simulator/simulator';
import { startTestStack } from './support/test-stack';
import type { RunningWorker, TestStack } from './support/test-stack';

let stack: TestStack;
let worker: RunningWorker;

beforeAll(async () => {
  stack = await startTestStack();
  worker = await stack.startWorker();
});

afterEach(() => {
  stack.sim.reset();
});

afterAll(async () => {
  await stack.close();
});

interface Expectation {
  faults: FaultName[];
  status: 'SUCCESS' | 'FAILED';
  /** Paid predictions the simulator recorded for the job. */
  purchases: number;
  attempts: { status: string; errorCode: string | null }[];
  jobErrorCode?: string;
  events: string[];
}

// What docs/system.md 3.1 and the error categories (packages/domain staging-errors) require per fault.
const CASES: [string, Expectation][] = [
  [
    'fail (retryable) buys attempt 2, which succeeds',
    {
      faults: ['fail'],
      status: 'SUCCESS',
      purchases: 2,
      attempts: [
        { status: 'FAILED', errorCode: 'PROVIDER_FAILED' },
        { status: 'SUCCEEDED', errorCode: null },
      ],
      events: ['retry_scheduled', 'completed'],
    },
  ],
  [
    'fail twice ends FAILED with ATTEMPTS_EXHAUSTED and never a third purchase',
    {
      faults: ['fail', 'fail'],
      status: 'FAILED',
      purchases: 2,
      jobErrorCode: 'ATTEMPTS_EXHAUSTED',
      attempts: [
        { status: 'FAILED', errorCode: 'PROVIDER_FAILED' },
        { status: 'FAILED', errorCode: 'PROVIDER_FAILED' },
      ],
      events: ['retry_scheduled', 'terminal_error'],
    },
  ],
  [
    'fail_permanent (safety) ends FAILED without attempt 2',
    {
      faults: ['fail_permanent'],
      status: 'FAILED',
      purchases: 1,
      jobErrorCode: 'PROVIDER_REJECTED_INPUT',
      attempts: [{ status: 'FAILED', errorCode: 'PROVIDER_REJECTED_INPUT' }],
      events: ['terminal_error'],
    },
  ],
  [
    'http_500 on create: nothing bought, attempt 1 ends as a transport failure, attempt 2 succeeds',
    {
      faults: ['http_500'],
      status: 'SUCCESS',
      purchases: 1,
      attempts: [
        { status: 'FAILED', errorCode: 'PROVIDER_UNAVAILABLE' },
        { status: 'SUCCEEDED', errorCode: null },
      ],
      events: ['retry_scheduled', 'completed'],
    },
  ],
  [
    'http_429 on create backs off without ending or spending the attempt',
    {
      faults: ['http_429', 'http_429'],
      status: 'SUCCESS',
      purchases: 1,
      attempts: [{ status: 'SUCCEEDED', errorCode: null }],
      events: ['completed'],
    },
  ],
  [
    'slow completes with one purchase',
    {
      faults: ['slow'],
      status: 'SUCCESS',
      purchases: 1,
      attempts: [{ status: 'SUCCEEDED', errorCode: null }],
      events: ['completed'],
    },
  ],
  [
    'never_complete times out, is canceled at the provider and retried once',
    {
      faults: ['never_complete'],
      status: 'SUCCESS',
      purchases: 2,
      attempts: [
        { status: 'FAILED', errorCode: 'PROVIDER_TIMEOUT' },
        { status: 'SUCCEEDED', errorCode: null },
      ],
      events: ['retry_scheduled', 'completed'],
    },
  ],
  [
    'duplicate_webhook finalizes once',
    {
      faults: ['duplicate_webhook'],
      status: 'SUCCESS',
      purchases: 1,
      attempts: [{ status: 'SUCCEEDED', errorCode: null }],
      events: ['completed'],
    },
  ],
  [
    'no_webhook is finished by the fallback poll',
    {
      faults: ['no_webhook'],
      status: 'SUCCESS',
      purchases: 1,
      attempts: [{ status: 'SUCCEEDED', errorCode: null }],
      events: ['completed'],
    },
  ],
  [
    'truncated_output is rejected and retried',
    {
      faults: ['truncated_output'],
      status: 'SUCCESS',
      purchases: 2,
      attempts: [
        { status: 'FAILED', errorCode: 'OUTPUT_TRUNCATED' },
        { status: 'SUCCEEDED', errorCode: null },
      ],
      events: ['retry_scheduled', 'completed'],
    },
  ],
  [
    'non_image_output is rejected and retried',
    {
      faults: ['non_image_output'],
      status: 'SUCCESS',
      purchases: 2,
      attempts: [
        { status: 'FAILED', errorCode: 'OUTPUT_NOT_IMAGE' },
        { status: 'SUCCEEDED', errorCode: null },
      ],
      events: ['retry_scheduled', 'completed'],
    },
  ],
  [
    'oversize_output is cut off at 20 MiB and ends FAILED',
    {
      faults: ['oversize_output'],
      status: 'FAILED',
      purchases: 1,
      jobErrorCode: 'OUTPUT_TOO_LARGE',
      attempts: [{ status: 'FAILED', errorCode: 'OUTPUT_TOO_LARGE' }],
      events: ['terminal_error'],
    },
  ],
  [
    'wrong_aspect_ratio ends FAILED',
    {
      faults: ['wrong_aspect_ratio'],
      status: 'FAILED',
      purchases: 1,
      jobErrorCode: 'OUTPUT_WRONG_ASPECT_RATIO',
      attempts: [{ status: 'FAILED', errorCode: 'OUTPUT_WRONG_ASPECT_RATIO' }],
      events: ['terminal_error'],
    },
  ],
  [
    'response_lost: the prediction is recovered from the provider, exactly one purchase',
    {
      faults: ['response_lost'],
      status: 'SUCCESS',
      purchases: 1,
      attempts: [{ status: 'SUCCEEDED', errorCode: null }],
      events: ['completed'],
    },
  ],
];

describe('simulator faults end in the state docs/system.md requires with the allowed purchases', () => {
  it.each(CASES)(
    '%s',
    async (_name, expected) => {
      await stack.faults(expected.faults);
      const { jobId } = await stack.seedJob();
      await stack.waitForStatus(jobId, ['SUCCESS', 'FAILED', 'CANCELED']);
      const job = await stack.db.aiJob.findUniqueOrThrow({
        where: { id: jobId },
        include: { attempts: { orderBy: { attemptNumber: 'asc' } } },
      });
      expect(job.status).toBe(expected.status);
      if (expected.jobErrorCode !== undefined) expect(job.errorCode).toBe(expected.jobErrorCode);
      expect(job.attempts.map((a) => ({ status: a.status, errorCode: a.errorCode }))).toEqual(
        expected.attempts,
      );
      expect(job.attempts.map((a) => a.attemptNumber)).toEqual(expected.attempts.map((_, i) => i + 1));
      expect(await stack.purchasesFor(jobId)).toHaveLength(expected.purchases);
      const images = await stack.db.propertyImage.findMany({ where: { aiJobId: jobId } });
      expect(images).toHaveLength(expected.status === 'SUCCESS' ? 1 : 0);
      const events = worker.log
        .lines()
        .filter((l) => l['jobId'] === jobId)
        .map((l) => l['event']);
      for (const event of expected.events) expect(events).toContain(event);
      if (expected.status === 'FAILED') {
        expect(events.filter((e) => e === 'terminal_error')).toHaveLength(1);
        expect(
          worker.log
            .lines()
            .some((l) => l['event'] === 'alert' && l['jobId'] === jobId && l['errorCode'] === job.errorCode),
        ).toBe(true);
      }
      // Every purchase carries a distinct attempt's callback URL: no attempt was bought twice.
      const purchases = await stack.purchasesFor(jobId);
      expect(new Set(purchases.map((p) => p.webhook)).size).toBe(purchases.length);
    },
    300_000,
  );
});

describe('provider credentials', () => {
  it('a 401 on create is a terminal configuration error: FAILED, PROVIDER_AUTH, nothing bought, alert', async () => {
    const wrong = await stack.startWorker({ env: { PROVIDER_API_TOKEN: 'not-the-simulator-token' } });
    await worker.app.consumer.worker.pause();
    try {
      const { jobId } = await stack.seedJob();
      await stack.waitForStatus(jobId, ['FAILED', 'SUCCESS']);
      const job = await stack.db.aiJob.findUniqueOrThrow({
        where: { id: jobId },
        include: { attempts: true },
      });
      expect(job.status).toBe('FAILED');
      expect(job.errorCode).toBe('PROVIDER_AUTH');
      expect(job.attempts).toEqual([
        expect.objectContaining({ attemptNumber: 1, status: 'FAILED', errorCode: 'PROVIDER_AUTH' }),
      ]);
      expect(await stack.purchasesFor(jobId)).toHaveLength(0);
      const terminal = wrong.log.events('terminal_error').filter((l) => l['jobId'] === jobId);
      expect(terminal).toEqual([
        expect.objectContaining({ errorCode: 'PROVIDER_AUTH', errorCategory: 'terminal' }),
      ]);
      expect(JSON.stringify(wrong.log.lines())).not.toContain('not-the-simulator-token');
    } finally {
      await wrong.stop();
      worker.app.consumer.worker.resume();
    }
  }, 300_000);
});
