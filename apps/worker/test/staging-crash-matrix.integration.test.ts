import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FaultSpec } from '@staging/provider-simulator/faults';
import { ORPHAN_CANCELED_ALERT } from '../src/loops/orphan-prediction-loop';
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
async function expectNoUntrackedObjects(jobId: string, propertyId: string, on: TestStack = stack): Promise<void> {
  for (const attemptNumber of [1, 2]) {
    const key = `staged/${propertyId}/${jobId}/${attemptNumber}.jpg`;
    if ((await on.storage.headObject(key)) === null) continue;
    const image = await on.db.propertyImage.count({ where: { objectKey: key } });
    const outbox = await on.db.storageDeletionOutbox.count({ where: { objectKey: key } });
    expect(image + outbox).toBeGreaterThan(0);
  }
}

/**
 * The create call's answer is lost under `fault` (the purchase exists); the worker is killed once
 * the provider holds the purchase, wherever its recovery stood, and a fresh one (its environment
 * `survivorEnv`, e.g. config changed by a deploy) finishes the job.
 */
async function loseCreateResponseThenRestart(
  fault: FaultSpec,
  env: Record<string, string> = {},
  survivorEnv: Record<string, string> = env,
  on: TestStack = stack,
) {
  await on.faults([{ ...fault, responseLost: true }]);
  const { jobId, propertyId } = await on.seedJob();
  const first = await on.spawnReadyWorker({ settings, env: on.env(env) });
  await waitUntil(async () => (await on.purchasesFor(jobId)).length > 0, { what: 'the purchase whose answer was lost' });
  first.child.kill('SIGKILL');
  expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
  const survivor = await on.spawnReadyWorker({ settings, env: on.env(survivorEnv) });
  const status = await on.waitForStatus(jobId, ['SUCCESS', 'CANCELED', 'FAILED']);
  survivor.child.kill('SIGTERM');
  expect(await survivor.exited).toEqual({ code: 0, signal: null });
  return { jobId, propertyId, status };
}

async function expectOnePurchaseOfAttempt1(jobId: string, propertyId: string, on: TestStack = stack): Promise<void> {
  const attempts = await on.db.aiProviderAttempt.findMany({ where: { aiJobId: jobId } });
  expect(attempts.map((a) => [a.attemptNumber, a.status])).toEqual([[1, 'SUCCEEDED']]);
  expect(await on.purchasesFor(jobId)).toHaveLength(1);
  await expectNoUntrackedObjects(jobId, propertyId, on);
}

/**
 * Every callback lost, and the list shows the purchase only after the first worker is killed: the
 * restarted worker's walk of the list is the only evidence.
 */
const LIST_IS_THE_ONLY_EVIDENCE = { listLagMs: 3_000, events: ['start', 'completed'] } satisfies Partial<FaultSpec>;

/** A stack of its own for the rows below, whose simulator is set up unlike the shared one. */
function useOwnStack(sim: Parameters<typeof startTestStack>[0]): () => TestStack {
  let own: TestStack;
  beforeAll(async () => {
    own = await startTestStack(sim);
  });
  afterAll(async () => {
    await own.close();
  });
  return () => own;
}

/**
 * The start callback is lost (Replicate sends it once), the list shows nothing for 150 s, and the
 * prediction finishes 40 s after creation, long after the empty list was walked: only the final
 * webhook, retried by the provider, can tell, so the worker must wait for it.
 */
const FINAL_WEBHOOK_IS_THE_ONLY_EVIDENCE = {
  name: 'list_lag',
  listLagMs: 150_000,
  events: ['start'],
  delayMs: 40_000,
} satisfies FaultSpec;

describe('crash matrix: a real account around the lost create response', () => {
  it(
    'create response lost, list lag longer than 120 s: the attempt waits for evidence and buys once',
    async () => {
      // The deadline is set above the run so it ends succeeded.
      const { jobId, propertyId, status } = await loseCreateResponseThenRestart(
        FINAL_WEBHOOK_IS_THE_ONLY_EVIDENCE,
        { PROVIDER_CANCEL_AFTER_SECONDS: '120' },
      );
      expect(status).toBe('SUCCESS');
      await expectOnePurchaseOfAttempt1(jobId, propertyId);
    },
    300_000,
  );

  it(
    'PROVIDER_CANCEL_AFTER_SECONDS lowered while the attempt is CREATING: recovery waits out the deadline that was sent and buys once',
    async () => {
      // The survivor's config would let the purchase be called absent 6 s after it was sent, while
      // the prediction runs until 40 s with a 120 s deadline.
      const { jobId, propertyId, status } = await loseCreateResponseThenRestart(
        FINAL_WEBHOOK_IS_THE_ONLY_EVIDENCE,
        { PROVIDER_CANCEL_AFTER_SECONDS: '120' },
        { PROVIDER_CANCEL_AFTER_SECONDS: '5' },
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

  it(
    'AI_STAGING_USER_HASH_SECRET rotated while the attempt is CREATING: recovery finds the purchase by what was sent and buys nothing twice',
    async () => {
      const { jobId, propertyId, status } = await loseCreateResponseThenRestart(
        { name: 'list_lag', ...LIST_IS_THE_ONLY_EVIDENCE },
        {},
        { AI_STAGING_USER_HASH_SECRET: randomBytes(32).toString('hex') },
      );
      expect(status).toBe('SUCCESS');
      await expectOnePurchaseOfAttempt1(jobId, propertyId);
    },
    300_000,
  );
});

describe('crash matrix: a provider that echoes the callback URL', () => {
  const own = useOwnStack({ sim: { mode: 'lenient' } });

  it(
    'PROVIDER_WEBHOOK_BASE_URL changed while the attempt is CREATING: the echoed callback URL is compared with the one sent, one purchase',
    async () => {
      // The same receiver, its origin spelled another way: a deploy that moved the public origin.
      const movedOrigin = own().receiver.origin.replace('127.0.0.1', 'localhost');
      const { jobId, propertyId, status } = await loseCreateResponseThenRestart(
        { name: 'list_lag', ...LIST_IS_THE_ONLY_EVIDENCE },
        {},
        { PROVIDER_WEBHOOK_BASE_URL: movedOrigin },
        own(),
      );
      expect(status).toBe('SUCCESS');
      await expectOnePurchaseOfAttempt1(jobId, propertyId, own());
    },
    300_000,
  );
});

describe('crash matrix: an echo that alters a value sent', () => {
  // Its own stack: the purchase it leaves unclaimed would be doubt for every later row's window.
  const own = useOwnStack({});

  it(
    'the listed purchase echoes another user_id: doubt, so the job fails closed with no second purchase',
    async () => {
      const { jobId, status } = await loseCreateResponseThenRestart(
        { name: 'echo_rewritten', rewrite: ['user_id'], ...LIST_IS_THE_ONLY_EVIDENCE },
        {},
        {},
        own(),
      );
      expect(status).toBe('FAILED');
      const job = await own().db.aiJob.findUniqueOrThrow({ where: { id: jobId }, select: { errorCode: true } });
      expect(job.errorCode).toBe('PURCHASE_UNCONFIRMED');
      const attempts = await own().db.aiProviderAttempt.findMany({ where: { aiJobId: jobId } });
      expect(attempts.map((a) => [a.attemptNumber, a.status, a.errorCode])).toEqual([[1, 'FAILED', 'PURCHASE_UNCONFIRMED']]);
      expect(await own().purchasesFor(jobId)).toHaveLength(1);
    },
    300_000,
  );
});

describe('crash matrix: a list of several pages whose next links spell the origin their own way', () => {
  const own = useOwnStack({ sim: { listPageSize: 2, linkHost: 'localhost' } });

  it(
    'killed before the create call with three pages in the window: two walks through the pages rule the purchase out, one purchase',
    async () => {
      // The account's other predictions (and one job's purchase) fill three pages of the window.
      await own().faults(['foreign_predictions']);
      const neighbour = await own().seedJob();
      const worker = await own().spawnReadyWorker({ settings });
      expect(await own().waitForStatus(neighbour.jobId, ['SUCCESS', 'CANCELED', 'FAILED'])).toBe('SUCCESS');
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toEqual({ code: 0, signal: null });

      const { jobId, propertyId } = await own().seedJob();
      const doomed = await own().spawnWorker({ args: ['--test-crash-at=before-create'], settings });
      expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
      const survivor = await own().spawnReadyWorker({ settings });
      expect(await own().waitForStatus(jobId, ['SUCCESS', 'CANCELED', 'FAILED'])).toBe('SUCCESS');
      survivor.child.kill('SIGTERM');
      expect(await survivor.exited).toEqual({ code: 0, signal: null });
      await expectOnePurchaseOfAttempt1(jobId, propertyId, own());
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

describe('crash matrix: a list lagging past the evidence window', () => {
  // Its own stack: the orphan pass of its survivor reads every recent prediction of the simulator.
  const own = useOwnStack({});

  it(
    'create response lost, every callback lost, list lag longer than the evidence window: recovery buys again and the reconciliation cancels the first purchase',
    async () => {
      // The first worker sends a deadline of an hour; a deploy lowered it to 5 s, so the survivor's
      // evidence window (5 s + finalWebhookWindowMs 1 s) ends while the first purchase still runs,
      // unlisted: the list shows it LIST_LAG_MS after its creation, after the survivor bought again.
      const LIST_LAG_MS = 90_000;
      const RECONCILE_INTERVAL_MS = 1_000;
      // A pass's list, ledger read and cancel on a starved machine.
      const PASS_ALLOWANCE_MS = 15_000;
      await own().faults([{ name: 'never_complete', listLagMs: LIST_LAG_MS, events: ['start', 'completed'], responseLost: true }]);
      const { jobId, propertyId } = await own().seedJob();
      const first = await own().spawnReadyWorker({ settings, env: own().env({ PROVIDER_CANCEL_AFTER_SECONDS: '3600' }) });
      const [orphan] = await waitUntil(async () => {
        const purchases = await own().purchasesFor(jobId);
        return purchases.length > 0 && purchases;
      }, { what: 'the purchase whose answer was lost' });
      first.child.kill('SIGKILL');
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

      const survivor = await own().spawnReadyWorker({
        settings,
        env: own().env({ PROVIDER_CANCEL_AFTER_SECONDS: '5', PROVIDER_RECONCILE_INTERVAL_MS: String(RECONCILE_INTERVAL_MS) }),
      });
      expect(await own().waitForStatus(jobId, ['SUCCESS', 'CANCELED', 'FAILED'])).toBe('SUCCESS');
      // Recovery bought again, the list showing nothing: for attempt 1 when the first worker died
      // before it saw the lost answer as a transport error, else for attempt 2 after attempt 1
      // failed retryable. On a machine so starved that the survivor's two walks outlast the list
      // lag, recovery finds the first purchase instead and the job's own deadline stops it.
      const attempts = await own().db.aiProviderAttempt.findMany({ where: { aiJobId: jobId }, orderBy: { attemptNumber: 'asc' } });
      expect(attempts.at(-1)?.status).toBe('SUCCEEDED');
      const held = attempts.flatMap((a) => (a.providerPredictionId === null ? [] : [a.providerPredictionId]));
      const orphaned = !held.includes(orphan!.id);
      expect((await own().purchasesFor(jobId)).map((p) => p.id)).toEqual(orphaned ? [orphan!.id, ...held] : held);

      // The bound: listed LIST_LAG_MS after creation, canceled by the next pass after that.
      const boundAt = Date.parse(orphan!.created_at) + LIST_LAG_MS + RECONCILE_INTERVAL_MS + PASS_ALLOWANCE_MS;
      await waitUntil(
        async () => (await own().predictions()).find((p) => p.id === orphan!.id)?.status === 'canceled',
        { what: 'the orphan canceled within list lag + reconciliation interval', ...(orphaned ? { timeoutMs: Math.max(0, boundAt - Date.now()) } : {}) },
      );
      const statuses = (await own().purchasesFor(jobId)).map((p) => p.status);
      expect(statuses).toEqual(['canceled', 'succeeded']);
      expect(survivor.lines().filter((line) => line['event'] === 'alert' && line['msg'] === ORPHAN_CANCELED_ALERT)).toEqual(
        orphaned ? [expect.objectContaining({ predictionId: orphan!.id })] : [],
      );
      // Nothing of the photo's signed URL reaches the logs.
      expect(JSON.stringify(survivor.lines())).not.toContain('X-Amz-Signature');
      survivor.child.kill('SIGTERM');
      expect(await survivor.exited).toEqual({ code: 0, signal: null });
      await expectNoUntrackedObjects(jobId, propertyId, own());
    },
    420_000,
  );
});

describe('crash matrix: a provider clock 10 minutes behind ours', () => {
  // Outside the ±5 minutes both the list span and the webhook window allow without a measurement.
  const own = useOwnStack({ sim: { clockOffsetMs: -10 * 60_000 } });

  it(
    'create response lost and every callback lost: the list span widened by the measured offset finds the purchase, bought once',
    async () => {
      const { jobId, propertyId, status } = await loseCreateResponseThenRestart(
        { name: 'list_lag', ...LIST_IS_THE_ONLY_EVIDENCE },
        {},
        {},
        own(),
      );
      expect(status).toBe('SUCCESS');
      await expectOnePurchaseOfAttempt1(jobId, propertyId, own());
    },
    300_000,
  );

  it(
    'create response lost and every callback refused for its timestamp: bought once',
    async () => {
      // The stack's receiver checks the plain ±5 minutes, as the api does before the worker has
      // measured the provider's clock: the provider's retries are all refused.
      const { jobId, propertyId, status } = await loseCreateResponseThenRestart({ name: 'response_lost' }, {}, {}, own());
      expect(status).toBe('SUCCESS');
      await expectOnePurchaseOfAttempt1(jobId, propertyId, own());
      const [attempt] = await own().db.aiProviderAttempt.findMany({ where: { aiJobId: jobId } });
      const answers = own().receiver.received.filter((r) => r.attemptId === attempt!.id).map((r) => r.status);
      expect(answers.length).toBeGreaterThan(0);
      expect(new Set(answers)).toEqual(new Set([401]));
    },
    300_000,
  );
});
