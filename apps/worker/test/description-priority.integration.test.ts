import { describe, expect, it } from '@jest/globals';
import { createProperty, createUser } from '@staging/db/testing/factories';
import { templateDescriptionGenerator } from '@staging/services/description/description-generator';
import type { DescriptionGenerator } from '@staging/services/description/description-generator';
import { requestPropertyDescription } from '@staging/services/description/request-description';
import { memoryLogger } from '@staging/services/staging/testing/staging-test-kit';
import { HANG_GUARD_MS, useAiQueueTestStack, waitUntil } from './support/test-stack';

const ctx = useAiQueueTestStack();

/** A description generator that holds every description open until `release()`. */
function heldGenerator() {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let inFlight = false;
  const generator: DescriptionGenerator = {
    id: 'held',
    async generate(facts) {
      inFlight = true;
      await released;
      return templateDescriptionGenerator.generate(facts);
    },
  };
  return { generator, inFlight: () => inFlight, release };
}

async function requestDescription(): Promise<string> {
  const owner = await createUser(ctx.stack.db);
  const property = await createProperty(ctx.stack.db, { ownerAgentId: owner.id });
  const producer = {
    db: ctx.stack.db,
    aiQueue: ctx.aiQueue,
    logger: memoryLogger().logger,
    clock: { now: () => new Date() },
  };
  const { aiJobId } = await requestPropertyDescription(producer, {
    propertyId: property.id,
    requestedByUserId: owner.id,
  });
  return aiJobId;
}

const readJob = (id: string) =>
  ctx.stack.db.aiJob.findUniqueOrThrow({
    where: { id },
    select: { status: true, startedAt: true, completedAt: true },
  });

// Descriptions and staging share the worker's event loop; an agent waits for a description, a
// staging job waits for the provider anyway. Ordering only: no latency is asserted here
// (tools/bench/description-isolation.ts measures that).
describe('descriptions go first on the worker process (priority gate)', () => {
  it('a staging delivery picked up while a description is in flight takes its first step after the description ends', async () => {
    const held = heldGenerator();
    // The cap is the hang guard here, so only the description's end can let the step go.
    const worker = await ctx.stack.startWorker({
      overrides: { descriptionGenerator: held.generator, stagingYieldMaxMs: HANG_GUARD_MS },
    });
    // A failed assertion must not leave the description held and the worker running.
    try {
      const descriptionId = await requestDescription();
      await waitUntil(async () => held.inFlight(), { what: 'the description in flight' });

      const { jobId } = await ctx.stack.seedJob();
      await waitUntil(async () => worker.app.priority.backgroundWaiting() >= 1, {
        what: 'the staging delivery to hold back',
      });
      expect((await readJob(jobId)).status).toBe('PENDING');

      held.release();
      const description = await waitUntil(
        async () => {
          const job = await readJob(descriptionId);
          return job.status === 'SUCCESS' && job;
        },
        { what: 'description SUCCESS' },
      );
      const staging = await waitUntil(
        async () => {
          const job = await readJob(jobId);
          return job.startedAt !== null && job;
        },
        { what: 'the staging job to start' },
      );
      expect(staging.startedAt!.getTime()).toBeGreaterThanOrEqual(description.completedAt!.getTime());
    } finally {
      held.release();
      await worker.stop();
    }
  });

  it('a description that never ends holds a staging step back only for the cap', async () => {
    const held = heldGenerator();
    const worker = await ctx.stack.startWorker({
      overrides: { descriptionGenerator: held.generator, stagingYieldMaxMs: 50 },
    });
    try {
      const descriptionId = await requestDescription();
      await waitUntil(async () => held.inFlight(), { what: 'the description in flight' });

      const { jobId } = await ctx.stack.seedJob();
      await waitUntil(async () => (await readJob(jobId)).status === 'SUCCESS', { what: 'staging SUCCESS' });
      expect((await readJob(descriptionId)).status).toBe('PROCESSING');

      held.release();
      await waitUntil(async () => (await readJob(descriptionId)).status === 'SUCCESS', {
        what: 'description SUCCESS',
      });
    } finally {
      held.release();
      await worker.stop();
    }
  });
});
