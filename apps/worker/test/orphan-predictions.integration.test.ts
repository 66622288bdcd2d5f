import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createProviderAttempt } from '@staging/db/testing/factories';
import type { Alert } from '@staging/platform/error-tracker';
import { memoryLogger } from '@staging/platform/testing/memory-logger';
import { objectUrlPrefixOf } from '@staging/provider/orphan-predictions';
import { fingerprintPredictionInput } from '@staging/provider/prediction-recovery';
import { createProviderClient } from '@staging/provider/provider-client';
import { createProviderClock, providerClockKey } from '@staging/services/staging/provider-clock';
import type { ProviderClient } from '@staging/provider/provider-client';
import type { PredictionInput } from '@staging/provider/provider-wire';
import { stagingWebhookUrl } from '@staging/provider/webhook-url';
import type { FaultSpec } from '@staging/provider-simulator/faults';
import { ORPHAN_CANCELED_ALERT, ORPHAN_SETTLED_ALERT, orphanWindowMs, runOrphanPredictionPass } from '../src/loops/orphan-prediction-loop';
import type { OrphanPredictionPassDeps } from '../src/loops/orphan-prediction-loop';
import { createReadBudget, withReadBudget } from '../src/staging/provider-read-budget';
import { startTestStack, TEST_TOKEN, waitUntil } from './support/test-stack';
import type { SeededJob, TestStack } from './support/test-stack';

let stack: TestStack;
let provider: ProviderClient;
const MODEL = 'openai/gpt-image-2';

beforeAll(async () => {
  stack = await startTestStack();
  provider = withReadBudget(
    createProviderClient({ baseUrl: stack.sim.url, token: TEST_TOKEN }),
    createReadBudget({ redis: stack.redis, key: `staging:provider-reads:${stack.queueName}`, limitPerMinute: 2_400 }),
  );
});

afterAll(async () => {
  await stack.close();
});

function inputWith(imageUrl: string): PredictionInput {
  return {
    prompt: 'Stage this living room.',
    input_images: [imageUrl],
    aspect_ratio: '3:2',
    quality: 'medium',
    output_format: 'jpeg',
    output_compression: 92,
    user_id: 'u_test',
  };
}

/** Buys one prediction of our model (every callback lost, so none reaches the receiver), running unless `fault` says. */
async function buy(input: PredictionInput, fault: FaultSpec | null = { name: 'never_complete' }): Promise<string> {
  if (fault !== null) await stack.faults([{ events: ['start', 'completed'], ...fault }]);
  const prediction = await provider.createPrediction({
    model: MODEL,
    input,
    webhook: stagingWebhookUrl(stack.receiver.origin, `unknown-${randomBytes(4).toString('hex')}`),
    webhookEventsFilter: ['start', 'completed'],
    cancelAfterSeconds: 3_600,
  });
  return prediction.id;
}

async function ourInput(job: SeededJob): Promise<PredictionInput> {
  return inputWith(await stack.storage.presignGetUrl(job.originalKey, 600));
}

async function statusOf(id: string): Promise<string | undefined> {
  return (await stack.predictions()).find((p) => p.id === id)?.status;
}

async function passDeps(alerts: Alert[], lockKey: string) {
  const log = memoryLogger('orphan-test');
  const deps: OrphanPredictionPassDeps = {
    db: stack.db,
    redis: stack.redis,
    provider,
    logger: log.logger,
    captureAlert: (alert) => alerts.push(alert),
    providerClock: createProviderClock(stack.redis, stack.suffix),
    model: MODEL,
    marks: {
      objectUrlPrefix: objectUrlPrefixOf(await stack.storage.presignGetUrl('probe', 60), 'probe'),
      webhookOrigin: stack.receiver.origin,
    },
    windowMs: orphanWindowMs(600),
    intervalMs: 60_000,
    lockKey,
  };
  return { deps, log };
}

describe('orphan prediction reconciliation pass', () => {
  it('cancels and alerts the running purchase no attempt holds, and touches nothing else', async () => {
    const [heldJob, recoveringJob, orphanJob, settledJob] = await stack.seedJobs(4);

    const heldInput = await ourInput(heldJob!);
    const held = await buy(heldInput);
    await createProviderAttempt(stack.db, { aiJobId: heldJob!.jobId, status: 'ACTIVE', providerPredictionId: held, creatingAt: new Date() });
    // The same input bought twice for one attempt: the purchase it does not hold is the orphan.
    const duplicate = await buy(heldInput);

    // A CREATING attempt whose create answer was lost: recovery's, whenever it went CREATING.
    const recoveringInput = await ourInput(recoveringJob!);
    await createProviderAttempt(stack.db, {
      aiJobId: recoveringJob!.jobId,
      status: 'CREATING',
      inputFingerprint: fingerprintPredictionInput(recoveringInput),
      creatingAt: new Date(Date.now() - 60 * 60_000),
    });
    const recovering = await buy(recoveringInput);

    // Another caller of our model on the account: a photo outside our bucket.
    const otherCaller = await buy(inputWith(`${new URL(stack.s3.endpoint).origin}/someone-elses-bucket/room.jpg`));
    // A purchase no attempt holds that finished already; the create also adds the account's
    // other models and a website run of our model (finished, as the simulator makes them).
    const settled = await buy(await ourInput(settledJob!), { name: 'foreign_predictions' });
    await waitUntil(async () => (await statusOf(settled)) === 'succeeded', { what: 'the finished orphan' });
    const running = await buy(await ourInput(orphanJob!));

    const alerts: Alert[] = [];
    const { deps, log } = await passDeps(alerts, `staging:orphan-predictions:test-${randomBytes(4).toString('hex')}`);
    const result = await runOrphanPredictionPass(deps);

    expect(result).toMatchObject({ ran: true, complete: true });
    expect(result.canceled.sort()).toEqual([duplicate, running].sort());
    expect(result.settled).toContain(settled);
    expect(await statusOf(duplicate)).toBe('canceled');
    expect(await statusOf(running)).toBe('canceled');
    for (const untouched of [held, recovering, otherCaller]) expect(await statusOf(untouched)).toBe('processing');
    expect(await statusOf(settled)).toBe('succeeded');
    const foreign = (await stack.predictions()).filter((p) => p.fault === null && ![held, duplicate, recovering, otherCaller, settled, running].includes(p.id));
    for (const p of foreign) expect(p.status).not.toBe('canceled');

    expect(alerts.map((a) => [a.message, a.level, a.tags['predictionId']]).sort()).toEqual(
      [
        [ORPHAN_CANCELED_ALERT, 'error', duplicate],
        [ORPHAN_CANCELED_ALERT, 'error', running],
        [ORPHAN_SETTLED_ALERT, 'warning', settled],
      ].sort(),
    );
    // Neither the logs nor the alerts carry the photo's signed URL.
    expect(log.text()).not.toContain('X-Amz-Signature');
    expect(JSON.stringify(alerts)).not.toContain('X-Amz-Signature');

    // One pass per interval across workers: the next one within the interval does not run.
    expect(await runOrphanPredictionPass(deps)).toMatchObject({ ran: false, canceled: [] });
    // A later pass lists the finished orphan again, and does not alert it twice.
    await stack.redis.del(deps.lockKey);
    const again = await runOrphanPredictionPass(deps);
    expect(again).toMatchObject({ ran: true, canceled: [] });
    expect(again.settled).toContain(settled);
    expect(alerts).toHaveLength(3);
  });

  it('two workers at once: one pass runs', async () => {
    const alerts: Alert[] = [];
    const lockKey = `staging:orphan-predictions:test-${randomBytes(4).toString('hex')}`;
    const [a, b] = await Promise.all([passDeps(alerts, lockKey), passDeps(alerts, lockKey)]);
    const results = await Promise.all([runOrphanPredictionPass(a.deps), runOrphanPredictionPass(b.deps)]);
    expect(results.map((r) => r.ran).sort()).toEqual([false, true]);
  });
});

describe('orphan prediction reconciliation pass: a provider clock 12 minutes behind ours', () => {
  it('leaves to recovery a purchase stamped further from creatingAt than the fixed shield, once the offset is measured', async () => {
    const [job] = await stack.seedJobs(1);
    // The provider stamps created_at 12 minutes before our creatingAt, and its echo differs from
    // what was sent (a provider that rewrites echoes): only the time ties it to the attempt.
    await createProviderAttempt(stack.db, {
      aiJobId: job!.jobId,
      status: 'CREATING',
      inputFingerprint: 'f'.repeat(64),
      creatingAt: new Date(Date.now() + 12 * 60_000),
    });
    const purchase = await buy(await ourInput(job!));
    const clock = createProviderClock(stack.redis, stack.suffix);
    await clock.record({ offsetMs: -12 * 60_000, uncertaintyMs: 500, measuredAtMs: Date.now(), source: 'date-header' });

    const alerts: Alert[] = [];
    const measured = await passDeps(alerts, `staging:orphan-predictions:test-${randomBytes(4).toString('hex')}`);
    const shielded = await runOrphanPredictionPass(measured.deps);
    expect(shielded).toMatchObject({ ran: true, complete: true });
    expect(shielded.canceled).not.toContain(purchase);
    expect(await statusOf(purchase)).not.toBe('canceled');

    // Without the measurement the same pass takes it for an orphan.
    await stack.redis.del(providerClockKey(stack.suffix));
    const unmeasured = await passDeps(alerts, `staging:orphan-predictions:test-${randomBytes(4).toString('hex')}`);
    expect((await runOrphanPredictionPass(unmeasured.deps)).canceled).toContain(purchase);
  });
});
