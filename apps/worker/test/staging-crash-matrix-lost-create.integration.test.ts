// The crash matrix around a lost create response: the worker is killed while the purchase's answer
// is lost, and the one that restarts must find the purchase (callbacks, the provider's list, echoed
// values) before it may buy again. Helpers: support/crash-matrix.ts.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { FaultSpec } from '@staging/provider-simulator/faults';
import {
  expectBoughtOnceAfterLostCreate,
  expectOnePurchaseOfAttempt1,
  LIST_IS_THE_ONLY_EVIDENCE,
  loseCreateResponseThenRestart,
  settings,
  useStack,
} from './support/crash-matrix';

const stack = useStack();

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
      await expectBoughtOnceAfterLostCreate(
        stack(),
        FINAL_WEBHOOK_IS_THE_ONLY_EVIDENCE,
        { PROVIDER_CANCEL_AFTER_SECONDS: '120' },
      );
    },
    300_000,
  );

  it(
    'PROVIDER_CANCEL_AFTER_SECONDS lowered while the attempt is CREATING: recovery waits out the deadline that was sent and buys once',
    async () => {
      // The survivor's config would let the purchase be called absent 6 s after it was sent, while
      // the prediction runs until 40 s with a 120 s deadline.
      await expectBoughtOnceAfterLostCreate(
        stack(),
        FINAL_WEBHOOK_IS_THE_ONLY_EVIDENCE,
        { PROVIDER_CANCEL_AFTER_SECONDS: '120' },
        { PROVIDER_CANCEL_AFTER_SECONDS: '5' },
      );
    },
    300_000,
  );

  it(
    'foreign predictions in the window: other models, website runs, object outputs and null inputs are passed over',
    async () => {
      // Every callback is lost, so the list is the only evidence, and it is full of the account's
      // other predictions, one of them a website run of our own model.
      await expectBoughtOnceAfterLostCreate(stack(), {
        name: 'foreign_predictions',
        events: ['start', 'completed'],
      });
    },
    300_000,
  );

  it(
    'AI_STAGING_USER_HASH_SECRET rotated while the attempt is CREATING: recovery finds the purchase by what was sent and buys nothing twice',
    async () => {
      await expectBoughtOnceAfterLostCreate(
        stack(),
        { name: 'list_lag', ...LIST_IS_THE_ONLY_EVIDENCE },
        {},
        { AI_STAGING_USER_HASH_SECRET: randomBytes(32).toString('hex') },
      );
    },
    300_000,
  );
});

describe('crash matrix: a provider that echoes the callback URL', () => {
  const own = useStack({ sim: { mode: 'lenient' } });

  it(
    'PROVIDER_WEBHOOK_BASE_URL changed while the attempt is CREATING: the echoed callback URL is compared with the one sent, one purchase',
    async () => {
      // The same receiver, its origin spelled another way: a deploy that moved the public origin.
      const movedOrigin = own().receiver.origin.replace('127.0.0.1', 'localhost');
      await expectBoughtOnceAfterLostCreate(
        own(),
        { name: 'list_lag', ...LIST_IS_THE_ONLY_EVIDENCE },
        {},
        { PROVIDER_WEBHOOK_BASE_URL: movedOrigin },
      );
    },
    300_000,
  );
});

describe('crash matrix: an echo that alters a value sent', () => {
  // Its own stack: the purchase it leaves unclaimed would be doubt for every later row's window.
  const own = useStack({});

  it(
    'the listed purchase echoes another user_id: doubt, so the job fails closed with no second purchase',
    async () => {
      const { jobId, status } = await loseCreateResponseThenRestart(
        own(),
        { name: 'echo_rewritten', rewrite: ['user_id'], ...LIST_IS_THE_ONLY_EVIDENCE },
        {},
        {},
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
  const own = useStack({ sim: { listPageSize: 2, linkHost: 'localhost' } });

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
      await expectOnePurchaseOfAttempt1(own(), jobId, propertyId);
    },
    300_000,
  );
});
