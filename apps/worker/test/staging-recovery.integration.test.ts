/**
 * Recovery of a CREATING attempt against the strict simulator, which, like Replicate, never
 * echoes `webhook` in a prediction object: the purchase is found from the `start` callback or by
 * the fingerprint of the input in the provider's list (never another attempt's purchase with the
 * same input), and an attempt whose purchase can be neither found nor ruled out fails closed
 * (PURCHASE_UNCONFIRMED) without buying again.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { ObjectStorage } from '@staging/platform/storage';
import { isPredictionOf, startTestStack, waitUntil } from './support/test-stack';
import type { RunningWorker, TestStack } from './support/test-stack';

let stack: TestStack;
// Generous, so a busy machine never turns a slow prediction into a timeout and a legitimate attempt 2.
const timings = { predictionTimeoutMs: 120_000 };

beforeAll(async () => {
  stack = await startTestStack();
});

afterEach(async () => {
  // Each test reads the provider's list: an earlier test's predictions must not be in it.
  stack.sim.reset();
  stack.sim.setListOutage(null);
  await stack.stopWorkers();
});

afterAll(async () => {
  await stack.close();
});

function eventsOf(worker: RunningWorker, jobId: string): Record<string, unknown>[] {
  return worker.log.lines().filter((line) => line['jobId'] === jobId);
}

async function jobWithAttempts(jobId: string) {
  return stack.db.aiJob.findUniqueOrThrow({
    where: { id: jobId },
    include: { attempts: { orderBy: { attemptNumber: 'asc' } } },
  });
}

describe('a lost create response is recovered from what the provider documents', () => {
  it('by the start callback: one purchase, tied to the attempt by its own callback URL', async () => {
    const worker = await stack.startWorker({ overrides: { timings } });
    await stack.faults([{ name: 'response_lost', events: ['completed'] }]);
    const { jobId } = await stack.seedJob();
    expect(await stack.waitForStatus(jobId, ['SUCCESS', 'FAILED', 'CANCELED'])).toBe('SUCCESS');
    expect(await stack.purchasesFor(jobId)).toHaveLength(1);
    const created = eventsOf(worker, jobId).find((line) => line['event'] === 'prediction_created');
    expect(created?.['source']).toBe('webhook_receipt');
  });

  it('by the input fingerprint in the list when every callback is lost too', async () => {
    const worker = await stack.startWorker({ overrides: { timings } });
    await stack.faults([{ name: 'response_lost', events: ['start', 'completed'] }]);
    const { jobId } = await stack.seedJob();
    expect(await stack.waitForStatus(jobId, ['SUCCESS', 'FAILED', 'CANCELED'])).toBe('SUCCESS');
    const purchases = await stack.purchasesFor(jobId);
    expect(purchases).toHaveLength(1);
    const job = await jobWithAttempts(jobId);
    expect(job.attempts.map((a) => [a.attemptNumber, a.status, a.providerPredictionId])).toEqual([
      [1, 'SUCCEEDED', purchases[0]!.id],
    ]);
    expect(job.attempts[0]!.inputFingerprint).toMatch(/^[0-9a-f]{64}$/);
    const created = eventsOf(worker, jobId).find((line) => line['event'] === 'prediction_created');
    expect(created?.['source']).toBe('provider_list');
  });
});

describe('attempt 2 sent with the same input as attempt 1', () => {
  // A presigned URL is signed to the second (X-Amz-Date), so an attempt 2 sent within the second
  // attempt 1 was carries the same input, and the same fingerprint, as attempt 1. This storage
  // signs each key once, which makes every call for it such a call.
  function oneUrlPerKey(): ObjectStorage {
    const urls = new Map<string, Promise<string>>();
    return Object.assign(Object.create(stack.storage) as ObjectStorage, {
      presignGetUrl(key: string, expiresInSeconds: number) {
        if (!urls.has(key)) urls.set(key, stack.storage.presignGetUrl(key, expiresInSeconds));
        return urls.get(key)!;
      },
    });
  }

  it("a 5xx that bought nothing ends attempt 2: attempt 1's purchase is not taken for it", async () => {
    const worker = await stack.startWorker({ overrides: { timings, storage: oneUrlPerKey() } });
    await stack.faults(['fail', 'http_500']);
    const { jobId } = await stack.seedJob();
    expect(await stack.waitForStatus(jobId, ['SUCCESS', 'FAILED', 'CANCELED'])).toBe('FAILED');
    const job = await jobWithAttempts(jobId);
    expect(job.attempts.map((a) => [a.attemptNumber, a.status, a.errorCode])).toEqual([
      [1, 'FAILED', 'PROVIDER_FAILED'],
      [2, 'FAILED', 'PROVIDER_UNAVAILABLE'],
    ]);
    expect(job.attempts[1]!.inputFingerprint).toBe(job.attempts[0]!.inputFingerprint);
    expect(job.errorCode).toBe('ATTEMPTS_EXHAUSTED');
    expect(await stack.purchasesFor(jobId)).toHaveLength(1);
    expect(eventsOf(worker, jobId).filter((line) => line['level'] === 'error' && line['event'] === undefined)).toEqual([]);
  });

  it("a lost create response of attempt 2 is recovered as its own purchase, not attempt 1's", async () => {
    await stack.startWorker({ overrides: { timings, storage: oneUrlPerKey() } });
    await stack.faults(['fail', { name: 'response_lost', events: ['start', 'completed'] }]);
    const { jobId } = await stack.seedJob();
    expect(await stack.waitForStatus(jobId, ['SUCCESS', 'FAILED', 'CANCELED'])).toBe('SUCCESS');
    const purchases = await stack.purchasesFor(jobId);
    expect(purchases).toHaveLength(2);
    const job = await jobWithAttempts(jobId);
    expect(job.attempts[1]!.inputFingerprint).toBe(job.attempts[0]!.inputFingerprint);
    // Each attempt holds the prediction its own create call bought (sent with its callback URL).
    const boughtBy = (attemptId: string) => purchases.find((p) => isPredictionOf(p, attemptId))?.id;
    expect(job.attempts.map((a) => [a.attemptNumber, a.status, a.providerPredictionId])).toEqual([
      [1, 'FAILED', boughtBy(job.attempts[0]!.id)],
      [2, 'SUCCEEDED', boughtBy(job.attempts[1]!.id)],
    ]);
  });
});

describe('a purchase that can be neither found nor ruled out fails closed', () => {
  async function expectFailedClosed(worker: RunningWorker, jobId: string): Promise<void> {
    expect(await stack.waitForStatus(jobId, ['SUCCESS', 'FAILED', 'CANCELED'])).toBe('FAILED');
    const job = await jobWithAttempts(jobId);
    expect(job.errorCode).toBe('PURCHASE_UNCONFIRMED');
    // Attempt 2 is never bought: the purchase of attempt 1 may exist.
    expect(job.attempts.map((a) => [a.attemptNumber, a.status, a.errorCode])).toEqual([
      [1, 'FAILED', 'PURCHASE_UNCONFIRMED'],
    ]);
    expect(await stack.purchasesFor(jobId)).toHaveLength(1);
    const alerts = worker.log
      .lines()
      .filter((line) => line['event'] === 'alert' && line['jobId'] === jobId);
    expect(alerts.map((line) => line['errorCode'])).toEqual(['PURCHASE_UNCONFIRMED']);
  }

  it('when the list stays unavailable through the grace period', async () => {
    const worker = await stack.startWorker({ overrides: { timings } });
    stack.sim.setListOutage(503);
    await stack.faults([{ name: 'response_lost', events: ['start', 'completed'] }]);
    const { jobId } = await stack.seedJob();
    await expectFailedClosed(worker, jobId);
  });

  it('when the purchase is in the time span but its input was already removed', async () => {
    // A long grace, so the list comes back (showing the removed data) well inside it.
    const worker = await stack.startWorker({ overrides: { timings: { ...timings, createRecoveryGraceMs: 20_000 } } });
    stack.sim.setListOutage(503);
    await stack.faults([{ name: 'response_lost', events: ['start', 'completed'] }]);
    const { jobId } = await stack.seedJob();
    const [lost] = await waitUntil(async () => {
      const purchases = await stack.purchasesFor(jobId);
      return purchases.length === 1 && purchases;
    }, { what: 'the lost purchase' });
    stack.sim.removeData(lost!.id);
    stack.sim.setListOutage(null);
    await expectFailedClosed(worker, jobId);
    const failure = worker.log
      .lines()
      .find((line) => line['jobId'] === jobId && String(line['msg']).includes('failing closed'));
    expect(String(failure?.['reason'])).toContain('no readable input');
  });
});

describe('an attempt is CREATING only once the request is about to leave', () => {
  it('a worker killed before the request left bought nothing; the next one buys exactly once', async () => {
    const { jobId } = await stack.seedJob();
    const doomed = await stack.spawnWorker({ args: ['--test-crash-at=before-create'], settings: timings });
    expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await stack.purchasesFor(jobId)).toHaveLength(0);
    const [attempt] = (await jobWithAttempts(jobId)).attempts;
    expect([attempt?.status, attempt?.providerPredictionId]).toEqual(['CREATING', null]);
    expect(attempt?.inputFingerprint).toMatch(/^[0-9a-f]{64}$/);

    await stack.spawnReadyWorker({ settings: timings });
    expect(await stack.waitForStatus(jobId, ['SUCCESS', 'FAILED', 'CANCELED'])).toBe('SUCCESS');
    expect(await stack.purchasesFor(jobId)).toHaveLength(1);
    // The list ruled the first call out (nothing bought), so the same attempt created again.
    expect((await jobWithAttempts(jobId)).attempts.map((a) => [a.attemptNumber, a.status])).toEqual([[1, 'SUCCEEDED']]);
  });
});
