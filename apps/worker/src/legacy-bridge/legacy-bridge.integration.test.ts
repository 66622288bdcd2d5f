import { createOriginalImage, createProperty, createUser } from '@staging/db/testing/factories';
import { enqueueLegacyStageRoomMessage } from '@staging/services/bridge/legacy-stage-room';
import type { TLegacyStageRoomMessage } from '@staging/services/bridge/legacy-stage-room';
import { testPhoto, useAiQueueTestStack, waitUntil } from '../../test/support/test-stack';

const ctx = useAiQueueTestStack();

async function seedOriginal() {
  const owner = await createUser(ctx.stack.db);
  const property = await createProperty(ctx.stack.db, { ownerAgentId: owner.id });
  const original = await createOriginalImage(ctx.stack.db, {
    propertyId: property.id,
    roomType: 'LIVING_ROOM',
  });
  await ctx.stack.storage.putObject(original.objectKey, await testPhoto(), 'image/jpeg');
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
    const worker = await ctx.stack.startWorker({
      env: {
        AI_STAGING_ASPECT_RATIO: '2:3',
        AI_STAGING_OUTPUT_FORMAT: 'png',
        AI_STAGING_QUALITY: 'high',
        AI_STAGING_OUTPUT_COMPRESSION: '80',
      },
    });
    try {
      const seed = await seedOriginal();
      const queueJobId = await enqueueLegacyStageRoomMessage(ctx.aiQueue, v1Message(seed));

      // The bridge adds legacyMetadata.bridge right after submitStaging commits the row, so the row
      // is read once that second write is in.
      const row = await waitUntil(
        async () => {
          const found = await ctx.stack.db.aiRoomStagingJob.findFirst({
            where: { originalImageId: seed.original.id },
          });
          return found?.legacyMetadata === null ? undefined : found;
        },
        { what: 'materialized job with its bridge metadata' },
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
        (await ctx.stack.db.propertyImage.findUniqueOrThrow({ where: { id: seed.original.id } })).roomType,
      ).toBe('TV_ROOM');

      expect(await ctx.stack.waitForStatus(row.aiJobId, ['SUCCESS', 'FAILED', 'CANCELED'])).toBe(
        'SUCCESS',
      );
      const [purchase] = await ctx.stack.purchasesFor(row.aiJobId);
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
  }, 300_000);

  it('refuses no-furniture and, without a worker sunset, old style names; the messages fail without a job', async () => {
    const worker = await ctx.stack.startWorker();
    try {
      expect(worker.log.events('legacy_bridge.no_sunset')).toHaveLength(1);
      const seed = await seedOriginal();
      const noFurniture = await enqueueLegacyStageRoomMessage(
        ctx.aiQueue,
        v1Message(seed, { style: 'no-furniture' }),
      );
      const alias = await enqueueLegacyStageRoomMessage(ctx.aiQueue, v1Message(seed, { style: 'Scandi' }));

      await waitUntil(
        async () =>
          (await ctx.aiQueue.getJobState(noFurniture)) === 'failed' &&
          (await ctx.aiQueue.getJobState(alias)) === 'failed',
        {
          what: 'both messages failed',
        },
      );
      const failed = await ctx.aiQueue.getJob(noFurniture);
      expect(failed?.failedReason).toContain('STYLE_NOT_GENERATABLE');
      expect(failed?.attemptsMade).toBe(1);
      expect((await ctx.aiQueue.getJob(alias))?.failedReason).toContain('LEGACY_STYLE_RETIRED');
      expect(
        await ctx.stack.db.aiRoomStagingJob.count({ where: { originalImageId: seed.original.id } }),
      ).toBe(0);
      expect(
        worker.log
          .events('legacy_bridge.rejected')
          .map((e) => e['code'])
          .sort(),
      ).toEqual(['LEGACY_STYLE_RETIRED', 'STYLE_NOT_GENERATABLE']);
    } finally {
      await worker.stop();
    }
  }, 300_000);

  it('keeps a message waiting, with no row, while the kill switch is off', async () => {
    const worker = await ctx.stack.startWorker({ env: { AI_ROOM_STAGING_ENABLED: 'false' } });
    try {
      const seed = await seedOriginal();
      const queueJobId = await enqueueLegacyStageRoomMessage(ctx.aiQueue, v1Message(seed));
      await waitUntil(async () => (await ctx.aiQueue.getJobState(queueJobId)) === 'delayed', {
        what: 'message deferred',
      });
      expect(
        await ctx.stack.db.aiRoomStagingJob.count({ where: { originalImageId: seed.original.id } }),
      ).toBe(0);
      expect((await ctx.aiQueue.getJob(queueJobId))?.attemptsMade).toBe(0);
      await ctx.aiQueue.remove(queueJobId);
    } finally {
      await worker.stop();
    }
  }, 300_000);
});
