import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { FaultName } from '@staging/provider-simulator/faults';
import { signWebhook } from '@staging/provider/webhook-signing';
import { startTestStack, TEST_SIGNING_SECRET, TEST_TOKEN, waitUntil } from './support/test-stack';
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
  /**
   * Run by a worker of its own with this prediction timeout. Only the timeout case has one: with a
   * short timeout for every case, a prediction merely slowed by a busy machine timed out.
   */
  predictionTimeoutMs?: number;
}

const SUCCEEDED = { status: 'SUCCEEDED', errorCode: null };
const failed = (errorCode: string) => ({ status: 'FAILED', errorCode });

/** A job that ends SUCCESS after `attempts`; a second attempt is always announced by retry_scheduled. */
function succeeds(faults: FaultName[], purchases: number, attempts: Expectation['attempts']): Expectation {
  const events = attempts.length > 1 ? ['retry_scheduled', 'completed'] : ['completed'];
  return { faults, status: 'SUCCESS', purchases, attempts, events };
}

/** A job that ends FAILED with `jobErrorCode` after `attempts`. */
function fails(faults: FaultName[], purchases: number, jobErrorCode: string, attempts: Expectation['attempts']): Expectation {
  const events = attempts.length > 1 ? ['retry_scheduled', 'terminal_error'] : ['terminal_error'];
  return { faults, status: 'FAILED', purchases, jobErrorCode, attempts, events };
}

// What docs/system.md 3.1 and the error categories (packages/domain staging-errors) require per fault.
// prettier-ignore
const CASES: [string, Expectation][] = [
  ['fail (retryable) buys attempt 2, which succeeds', succeeds(['fail'], 2, [failed('PROVIDER_FAILED'), SUCCEEDED])],
  ['fail twice ends FAILED with ATTEMPTS_EXHAUSTED and never a third purchase',
    fails(['fail', 'fail'], 2, 'ATTEMPTS_EXHAUSTED', [failed('PROVIDER_FAILED'), failed('PROVIDER_FAILED')])],
  ['fail_permanent (safety) ends FAILED without attempt 2',
    fails(['fail_permanent'], 1, 'PROVIDER_REJECTED_INPUT', [failed('PROVIDER_REJECTED_INPUT')])],
  ['http_500 on create: nothing bought, attempt 1 ends as a transport failure, attempt 2 succeeds',
    succeeds(['http_500'], 1, [failed('PROVIDER_UNAVAILABLE'), SUCCEEDED])],
  ['http_429 on create backs off without ending or spending the attempt', succeeds(['http_429', 'http_429'], 1, [SUCCEEDED])],
  ['slow completes with one purchase', succeeds(['slow'], 1, [SUCCEEDED])],
  ['never_complete times out, is canceled at the provider and retried once',
    { ...succeeds(['never_complete'], 2, [failed('PROVIDER_TIMEOUT'), SUCCEEDED]), predictionTimeoutMs: 5_000 }],
  ['duplicate_webhook finalizes once', succeeds(['duplicate_webhook'], 1, [SUCCEEDED])],
  ['no_webhook is finished by the fallback poll', succeeds(['no_webhook'], 1, [SUCCEEDED])],
  ['truncated_output is rejected and retried', succeeds(['truncated_output'], 2, [failed('OUTPUT_TRUNCATED'), SUCCEEDED])],
  ['non_image_output is rejected and retried', succeeds(['non_image_output'], 2, [failed('OUTPUT_NOT_IMAGE'), SUCCEEDED])],
  ['oversize_output is cut off at 20 MiB and ends FAILED',
    fails(['oversize_output'], 1, 'OUTPUT_TOO_LARGE', [failed('OUTPUT_TOO_LARGE')])],
  ['wrong_aspect_ratio ends FAILED',
    fails(['wrong_aspect_ratio'], 1, 'OUTPUT_WRONG_ASPECT_RATIO', [failed('OUTPUT_WRONG_ASPECT_RATIO')])],
  ['response_lost: the prediction is recovered from the provider, exactly one purchase',
    succeeds(['response_lost'], 1, [SUCCEEDED])],
  // What Replicate's OpenAPI document allows beside the happy path (docs/decisions/staging.md,
  // "An aborted attempt is followed by attempt 2"):
  ['aborted_before_start: never ran, so attempt 2 is bought and succeeds',
    succeeds(['aborted_before_start'], 2, [failed('PROVIDER_ABORTED'), SUCCEEDED])],
  ['stuck_starting: aborted at its Cancel-After deadline, then attempt 2 succeeds',
    succeeds(['stuck_starting'], 2, [failed('PROVIDER_ABORTED'), SUCCEEDED])],
  ['webhooks_out_of_order never moves the attempt backwards', succeeds(['webhooks_out_of_order'], 1, [SUCCEEDED])],
  ['webhook_before_response: the final callback before the create answer, one purchase',
    succeeds(['webhook_before_response'], 1, [SUCCEEDED])],
  ['accepted_202: a 202 create answer is a purchase like a 201', succeeds(['accepted_202'], 1, [SUCCEEDED])],
];

/** Runs one case on `runner` and checks its outcome, its purchases and the worker's events. */
async function runCase(runner: RunningWorker, expected: Expectation): Promise<void> {
  await stack.faults(expected.faults);
  const { jobId } = await stack.seedJob();
  await stack.waitForStatus(jobId, ['SUCCESS', 'FAILED', 'CANCELED']);
  const job = await stack.db.aiJob.findUniqueOrThrow({
    where: { id: jobId },
    include: { attempts: { orderBy: { attemptNumber: 'asc' } } },
  });
  // One comparison of the whole outcome, so a failure shows every attempt's error too.
  expect({
    status: job.status,
    attempts: job.attempts.map((a) => ({ status: a.status, errorCode: a.errorCode })),
  }).toEqual({ status: expected.status, attempts: expected.attempts });
  if (expected.jobErrorCode !== undefined) expect(job.errorCode).toBe(expected.jobErrorCode);
  expect(job.attempts.map((a) => a.attemptNumber)).toEqual(expected.attempts.map((_, i) => i + 1));
  expect(await stack.purchasesFor(jobId)).toHaveLength(expected.purchases);
  const images = await stack.db.propertyImage.findMany({ where: { aiJobId: jobId } });
  expect(images).toHaveLength(expected.status === 'SUCCESS' ? 1 : 0);
  const events = runner.log
    .lines()
    .filter((l) => l['jobId'] === jobId)
    .map((l) => l['event']);
  for (const event of expected.events) expect(events).toContain(event);
  if (expected.status === 'FAILED') {
    expect(events.filter((e) => e === 'terminal_error')).toHaveLength(1);
    expect(
      runner.log
        .lines()
        .some((l) => l['event'] === 'alert' && l['jobId'] === jobId && l['errorCode'] === job.errorCode),
    ).toBe(true);
  }
  // Every purchase carries a distinct attempt's callback URL: no attempt was bought twice.
  const purchases = await stack.purchasesFor(jobId);
  expect(new Set(purchases.map((p) => p.webhook)).size).toBe(purchases.length);
}

describe('simulator faults end in the state docs/system.md requires with the allowed purchases', () => {
  it.each(CASES)(
    '%s',
    async (_name, expected) => {
      if (expected.predictionTimeoutMs === undefined) return runCase(worker, expected);
      await worker.app.consumer.worker.pause();
      const timed = await stack.startWorker({
        overrides: { timings: { predictionTimeoutMs: expected.predictionTimeoutMs } },
      });
      try {
        await runCase(timed, expected);
      } finally {
        await timed.stop();
        worker.app.consumer.worker.resume();
      }
    },
    300_000,
  );
});

describe("a 429's wait", () => {
  it('the next create waits at least the seconds the throttled detail names', async () => {
    const before = stack.sim.state.createCalls.length;
    await stack.faults([{ name: 'http_429', retryAfterSeconds: 3 }]);
    const { jobId } = await stack.seedJob();
    await stack.waitForStatus(jobId, ['SUCCESS', 'FAILED', 'CANCELED']);
    const [throttled, bought] = stack.sim.state.createCalls.slice(before).map((call) => Date.parse(call.at));
    expect(bought! - throttled!).toBeGreaterThanOrEqual(3_000);
    expect((await stack.db.aiJob.findUniqueOrThrow({ where: { id: jobId } })).status).toBe('SUCCESS');
  });
});

describe('callbacks out of order', () => {
  /** Replays the prediction as it looked before (`status`), signed like a real callback for the attempt. */
  async function staleCallback(attemptId: string, predictionId: string, status: 'starting' | 'processing'): Promise<number> {
    const current = (await (
      await fetch(`${stack.sim.url}/predictions/${predictionId}`, { headers: { Authorization: `Bearer ${TEST_TOKEN}` } })
    ).json()) as Record<string, unknown>;
    const body = JSON.stringify({ ...current, status, output: null, completed_at: null });
    const headers = signWebhook({ secret: TEST_SIGNING_SECRET, webhookId: `msg_stale_${status}_${attemptId}`, timestamp: new Date(), body });
    const response = await fetch(`${stack.receiver.origin}/api/webhooks/provider/staging/${attemptId}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
    });
    return response.status;
  }

  it('a stale callback before or after the final one never moves the attempt backwards', async () => {
    await stack.faults([{ name: 'slow', delayMs: 3_000 }]);
    const { jobId } = await stack.seedJob();
    const active = await waitUntil(
      async () => stack.db.aiProviderAttempt.findFirst({ where: { aiJobId: jobId, status: 'ACTIVE', providerPredictionId: { not: null } } }),
      { what: 'an active attempt with its prediction' },
    );
    const predictionId = active.providerPredictionId!;
    expect(await staleCallback(active.id, predictionId, 'starting')).toBe(204);
    await stack.waitForStatus(jobId, ['SUCCESS', 'FAILED', 'CANCELED']);
    expect(await staleCallback(active.id, predictionId, 'processing')).toBe(204);
    const job = await stack.db.aiJob.findUniqueOrThrow({ where: { id: jobId }, include: { attempts: true } });
    expect({ status: job.status, attempts: job.attempts.map((a) => [a.attemptNumber, a.status]) }).toEqual({
      status: 'SUCCESS',
      attempts: [[1, 'SUCCEEDED']],
    });
    expect(await stack.purchasesFor(jobId)).toHaveLength(1);
  });
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
