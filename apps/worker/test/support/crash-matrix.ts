// What the crash-matrix files share: the short BullMQ locks their killed workers need, a stack per
// file or per describe, the lost-create-then-restart scene and the one-purchase check. Split in
// files so Jest runs them side by side; each stack is a deployment of its own (database, queue,
// simulator), so the files cannot see each other's purchases.
import { afterAll, beforeAll, expect } from '@jest/globals';
import type { FaultSpec } from '@staging/provider-simulator/faults';
import { startTestStack, waitUntil } from './test-stack';
import type { TestStack } from './test-stack';

/** Short BullMQ locks so the killed worker's job is detected as stalled within about a second. */
export const settings = { lockDurationMs: 1_200, stalledIntervalMs: 500 };

/**
 * Every callback lost, and the list shows the purchase only after the first worker is killed: the
 * restarted worker's walk of the list is the only evidence.
 */
export const LIST_IS_THE_ONLY_EVIDENCE = { listLagMs: 3_000, events: ['start', 'completed'] } satisfies Partial<FaultSpec>;

/** A stack started before and closed after the enclosing file or describe, its simulator as given. */
export function useStack(options: Parameters<typeof startTestStack>[0] = {}): () => TestStack {
  let stack: TestStack | undefined;
  beforeAll(async () => {
    stack = await startTestStack(options);
  });
  afterAll(async () => {
    await stack?.close();
  });
  return () => {
    if (stack === undefined) throw new Error('the stack is read before its beforeAll ran');
    return stack;
  };
}

/** Every staged object of the job in storage is referenced by an image row or an outbox row. */
export async function expectNoUntrackedObjects(on: TestStack, jobId: string, propertyId: string): Promise<void> {
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
export async function loseCreateResponseThenRestart(
  on: TestStack,
  fault: FaultSpec,
  env: Record<string, string> = {},
  survivorEnv: Record<string, string> = env,
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

export async function expectOnePurchaseOfAttempt1(on: TestStack, jobId: string, propertyId: string): Promise<void> {
  const attempts = await on.db.aiProviderAttempt.findMany({ where: { aiJobId: jobId } });
  expect(attempts.map((a) => [a.attemptNumber, a.status])).toEqual([[1, 'SUCCEEDED']]);
  expect(await on.purchasesFor(jobId)).toHaveLength(1);
  await expectNoUntrackedObjects(on, jobId, propertyId);
}

/** {@link loseCreateResponseThenRestart}, then the job succeeded with one purchase, of attempt 1. */
export async function expectBoughtOnceAfterLostCreate(
  on: TestStack,
  fault: FaultSpec,
  env?: Record<string, string>,
  survivorEnv?: Record<string, string>,
): Promise<{ jobId: string; propertyId: string }> {
  const { jobId, propertyId, status } = await loseCreateResponseThenRestart(on, fault, env, survivorEnv);
  expect(status).toBe('SUCCESS');
  await expectOnePurchaseOfAttempt1(on, jobId, propertyId);
  return { jobId, propertyId };
}
