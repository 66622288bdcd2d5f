// The crash matrix where time is the evidence: a list that lags past the evidence window (recovery
// buys again and the reconciliation cancels the first purchase) and a provider clock 10 minutes
// behind ours. Helpers: support/crash-matrix.ts.
import { describe, expect, it } from '@jest/globals';
import { ORPHAN_CANCELED_ALERT } from '../src/loops/orphan-prediction-loop';
import {
  expectBoughtOnceAfterLostCreate,
  expectNoUntrackedObjects,
  LIST_IS_THE_ONLY_EVIDENCE,
  settings,
  useStack,
} from './support/crash-matrix';
import { waitUntil } from './support/test-stack';

describe('crash matrix: a list lagging past the evidence window', () => {
  // Its own stack: the orphan pass of its survivor reads every recent prediction of the simulator.
  const own = useStack({});

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
      await expectNoUntrackedObjects(own(), jobId, propertyId);
    },
    420_000,
  );
});

describe('crash matrix: a provider clock 10 minutes behind ours', () => {
  // Outside the ±5 minutes both the list span and the webhook window allow without a measurement.
  const own = useStack({ sim: { clockOffsetMs: -10 * 60_000 } });

  it(
    'create response lost and every callback lost: the list span widened by the measured offset finds the purchase, bought once',
    async () => {
      await expectBoughtOnceAfterLostCreate(
        own(),
        { name: 'list_lag', ...LIST_IS_THE_ONLY_EVIDENCE },
        {},
        {},
      );
    },
    300_000,
  );

  it(
    'create response lost and every callback refused for its timestamp: bought once',
    async () => {
      // The stack's receiver checks the plain ±5 minutes, as the api does before the worker has
      // measured the provider's clock: the provider's retries are all refused.
      const { jobId } = await expectBoughtOnceAfterLostCreate(own(), { name: 'response_lost' });
      const [attempt] = await own().db.aiProviderAttempt.findMany({ where: { aiJobId: jobId } });
      const answers = own().receiver.received.filter((r) => r.attemptId === attempt!.id).map((r) => r.status);
      expect(answers.length).toBeGreaterThan(0);
      expect(new Set(answers)).toEqual(new Set([401]));
    },
    300_000,
  );
});
