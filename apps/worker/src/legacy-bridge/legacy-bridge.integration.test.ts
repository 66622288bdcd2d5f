import { createOriginalImage, createProperty, createUser } from '@staging/db/testing/factories';
import { enqueueLegacyStageRoomMessage } from '@staging/services/bridge/legacy-stage-room';
import type { TLegacyStageRoomMessage } from '@staging/services/bridge/legacy-stage-room';
import { createAiQueue } from '@staging/services/description/ai-queue';
import type { AiQueue } from '@staging/services/description/ai-queue';
import { startTestStack, testPhoto, waitUntil } from '../../test/support/test-stack';
import type { TestStack } from '../../test/support/test-stack';

let stack: TestStack;
let aiQueue: AiQueue;

beforeAll(async () => {
  stack = await startTestStack();
  aiQueue = createAiQueue(stack.redis, stack.suffix);
});

afterAll(async () => {
  await aiQueue.obliterate({ force: true });
  await aiQueue.close();
  await stack.close();
});

async function seedOriginal() {
  const owner = await createUser(stack.db);
  const property = await createProperty(stack.db, { ownerAgentId: owner.id });
  const original = await createOriginalImage(stack.db, { propertyId: property.id, roomType: 'LIVING_ROOM' });
  await stack.storage.putObject(original.objectKey, await testPhoto(), 'image/jpeg');
  return { owner, property, original };
}

function v1Message(
  seed: Awaited<ReturnType<typeof seedOriginal>>,
  overrides: Partial<TLegacyStageRoomMessage> = {},
): TLegacyStageRoomMessage {
  return {
    imageId: seed.original.id,
    style: 'MODERN',
    roomType: 'TV room',
    requestedByUserId: seed.owner.id,
    submittedAt: new Date().toISOString(),
    ...overrides,
  };
}

describe('legacy stage-room bridge in the worker', () => {
  it("turns a v1 message into a v2 job with the worker's own producer values, which the pipeline completes", async () => {
    // The worker's environment differs from every producer default: these values must be the ones persisted and sent.
    const worker = await stack.startWorker({
      env: {
        AI_STAGING_ASPECT_RATIO: '2:3',
        AI_STAGING_OUTPUT_FORMAT: 'png',
        AI_STAGING_QUALITY: 'high',
        AI_STAGING_OUTPUT_COMPRESSION: '80',
      },
    });
    try {
      const seed = await seedOriginal();
      const queueJobId = await enqueueLegacyStageRoomMessage(aiQueue, v1Message(seed));

      const row = await waitUntil(
        () => stack.db.aiRoomStagingJob.findFirst({ where: { originalImageId: seed.original.id } }),
        { what: 'materialized job', timeoutMs: 30_000 },
      );
      expect(row).toMatchObject({
        canonicalRoomType: 'TV_ROOM',
        canonicalStyle: 'MODERN',
        submittedStyle: 'MODERN',
        legacyStyle: null,
        quality: 'high',
        aspectRatio: '2:3',
        outputFormat: 'png',
        outputCompression: 80,
      });
      expect(row.legacyMetadata).toMatchObject({
        bridge: { source: 'legacy-queue', queueJobId, roomType: 'TV room' },
      });
      // The original's room type is persisted at submission, as for any producer.
      expect(
        (await stack.db.propertyImage.findUniqueOrThrow({ where: { id: seed.original.id } })).roomType,
      ).toBe('TV_ROOM');

      expect(await stack.waitForStatus(row.aiJobId, ['SUCCESS', 'FAILED', 'CANCELED'], 30_000)).toBe(
        'SUCCESS',
      );
      const [purchase] = await stack.purchasesFor(row.aiJobId);
      expect(purchase?.input).toMatchObject({
        aspect_ratio: '2:3',
        output_format: 'png',
        quality: 'high',
        output_compression: 80,
      });
      expect(worker.log.events('legacy_bridge.materialized')).toMatchObject([
        { jobId: row.aiJobId, disposition: 'ENQUEUED', queueJobId },
      ]);
    } finally {
      await worker.stop();
    }
  }, 60_000);

  it('refuses no-furniture and, without a worker sunset, old style names; the messages fail without a job', async () => {
    const worker = await stack.startWorker();
    try {
      expect(worker.log.events('legacy_bridge.no_sunset')).toHaveLength(1);
      const seed = await seedOriginal();
      const noFurniture = await enqueueLegacyStageRoomMessage(
        aiQueue,
        v1Message(seed, { style: 'no-furniture' }),
      );
      const alias = await enqueueLegacyStageRoomMessage(aiQueue, v1Message(seed, { style: 'Scandi' }));

      await waitUntil(
        async () =>
          (await aiQueue.getJobState(noFurniture)) === 'failed' &&
          (await aiQueue.getJobState(alias)) === 'failed',
        {
          what: 'both messages failed',
          timeoutMs: 30_000,
        },
      );
      const failed = await aiQueue.getJob(noFurniture);
      expect(failed?.failedReason).toContain('STYLE_NOT_GENERATABLE');
      expect(failed?.attemptsMade).toBe(1);
      expect((await aiQueue.getJob(alias))?.failedReason).toContain('LEGACY_STYLE_RETIRED');
      expect(await stack.db.aiRoomStagingJob.count({ where: { originalImageId: seed.original.id } })).toBe(0);
      expect(
        worker.log
          .events('legacy_bridge.rejected')
          .map((e) => e['code'])
          .sort(),
      ).toEqual(['LEGACY_STYLE_RETIRED', 'STYLE_NOT_GENERATABLE']);
    } finally {
      await worker.stop();
    }
  }, 60_000);

  it('keeps a message waiting, with no row, while the kill switch is off', async () => {
    const worker = await stack.startWorker({ env: { AI_ROOM_STAGING_ENABLED: 'false' } });
    try {
      const seed = await seedOriginal();
      const queueJobId = await enqueueLegacyStageRoomMessage(aiQueue, v1Message(seed));
      await waitUntil(async () => (await aiQueue.getJobState(queueJobId)) === 'delayed', {
        what: 'message deferred',
        timeoutMs: 30_000,
      });
      expect(await stack.db.aiRoomStagingJob.count({ where: { originalImageId: seed.original.id } })).toBe(0);
      expect((await aiQueue.getJob(queueJobId))?.attemptsMade).toBe(0);
      await aiQueue.remove(queueJobId);
    } finally {
      await worker.stop();
    }
  }, 60_000);
});
