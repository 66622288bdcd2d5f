import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FaultSpec } from '@staging/provider-simulator/faults';
import { STEP_BOUNDARIES } from '../src/staging/staging-deps';
import { startTestStack, waitUntil } from './support/test-stack';
import type { TestStack } from './support/test-stack';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack.close();
});

// Short BullMQ locks so the killed worker's job is detected as stalled within about a second.
const settings = { lockDurationMs: 1_200, stalledIntervalMs: 500 };

/** Every staged object of the job in storage is referenced by an image row or an outbox row. */
async function expectNoUntrackedObjects(jobId: string, propertyId: string): Promise<void> {
  for (const attemptNumber of [1, 2]) {
    const key = `staged/${propertyId}/${jobId}/${attemptNumber}.jpg`;
    if ((await stack.storage.headObject(key)) === null) continue;
    const image = await stack.db.propertyImage.count({ where: { objectKey: key } });
    const outbox = await stack.db.storageDeletionOutbox.count({ where: { objectKey: key } });
    expect(image + outbox).toBeGreaterThan(0);
  }
}

/**
 * The create call's answer is lost under `fault` (the purchase exists); the worker is killed once
 * the provider holds the purchase, wherever its recovery stood, and a fresh one finishes the job.
 */
async function loseCreateResponseThenRestart(fault: FaultSpec, env: Record<string, string> = {}) {
  await stack.faults([{ ...fault, responseLost: true }]);
  const { jobId, propertyId } = await stack.seedJob();
  const first = await stack.spawnReadyWorker({ settings, env: stack.env(env) });
  await waitUntil(async () => (await stack.purchasesFor(jobId)).length > 0, { what: 'the purchase whose answer was lost' });
  first.child.kill('SIGKILL');
  expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
  const survivor = await stack.spawnReadyWorker({ settings, env: stack.env(env) });
  const status = await stack.waitForStatus(jobId, ['SUCCESS', 'CANCELED', 'FAILED']);
  survivor.child.kill('SIGTERM');
  expect(await survivor.exited).toEqual({ code: 0, signal: null });
  return { jobId, propertyId, status };
}

async function expectOnePurchaseOfAttempt1(jobId: string, propertyId: string): Promise<void> {
  const attempts = await stack.db.aiProviderAttempt.findMany({ where: { aiJobId: jobId } });
  expect(attempts.map((a) => [a.attemptNumber, a.status])).toEqual([[1, 'SUCCEEDED']]);
  expect(await stack.purchasesFor(jobId)).toHaveLength(1);
  await expectNoUntrackedObjects(jobId, propertyId);
}

describe('crash matrix: a real account around the lost create response', () => {
  it(
    'create response lost, list lag longer than 120 s: the attempt waits for evidence and buys once',
    async () => {
      // The start callback is lost (Replicate sends it once), the list shows nothing for 150 s, and
      // the prediction finishes 40 s after creation, long after the empty list was walked: only the
      // final webhook, retried by the provider, can tell, so the worker must wait for it. The
      // deadline is set above the run so it ends succeeded.
      const { jobId, propertyId, status } = await loseCreateResponseThenRestart(
        { name: 'list_lag', listLagMs: 150_000, events: ['start'], delayMs: 40_000 },
        { PROVIDER_CANCEL_AFTER_SECONDS: '120' },
      );
      expect(status).toBe('SUCCESS');
      await expectOnePurchaseOfAttempt1(jobId, propertyId);
    },
    300_000,
  );

  it(
    'foreign predictions in the window: other models, website runs, object outputs and null inputs are passed over',
    async () => {
      // Every callback is lost, so the list is the only evidence, and it is full of the account's
      // other predictions, one of them a website run of our own model.
      const { jobId, propertyId, status } = await loseCreateResponseThenRestart({
        name: 'foreign_predictions',
        events: ['start', 'completed'],
      });
      expect(status).toBe('SUCCESS');
      await expectOnePurchaseOfAttempt1(jobId, propertyId);
    },
    300_000,
  );
});

describe('crash matrix: SIGKILL at each step boundary, then restart', () => {
  it.each(STEP_BOUNDARIES.map((b) => [b]))(
    'killed at %s: the job finishes with exactly one purchase',
    async (boundary) => {
      // while-waiting is only reached while the prediction runs: on a slow machine the first poll
      // could find it finished, so it finishes when the test says, after the kill.
      const holdPrediction = boundary === 'while-waiting';
      if (holdPrediction) await stack.faults(['never_complete']);
      const { jobId, propertyId } = await stack.seedJob();
      const doomed = await stack.spawnWorker({ args: [`--test-crash-at=${boundary}`], settings });
      // The exit is the event; a worker that never reaches the boundary hangs into the Jest timeout.
      expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
      expect(doomed.stderr()).toContain(`SIGKILL at ${boundary}`);
      if (holdPrediction) {
        const [running] = await stack.purchasesFor(jobId);
        await stack.sim.completePrediction(running!.id);
      }

      const survivor = await stack.spawnReadyWorker({ settings });
      const status = await stack.waitForStatus(jobId, ['SUCCESS', 'CANCELED', 'FAILED']);
      expect(status).toBe('SUCCESS');
      const attempts = await stack.db.aiProviderAttempt.findMany({ where: { aiJobId: jobId } });
      // A restart alone never moves to attempt 2, and never buys an attempt twice.
      expect(attempts.map((a) => [a.attemptNumber, a.status])).toEqual([[1, 'SUCCEEDED']]);
      expect(await stack.purchasesFor(jobId)).toHaveLength(1);
      expect(await stack.db.propertyImage.count({ where: { aiJobId: jobId } })).toBe(1);
      await expectNoUntrackedObjects(jobId, propertyId);

      survivor.child.kill('SIGTERM');
      expect(await survivor.exited).toEqual({ code: 0, signal: null });
    },
    300_000,
  );
});
