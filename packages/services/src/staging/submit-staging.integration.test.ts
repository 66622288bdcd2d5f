import { Worker } from 'bullmq';
import { createOriginalImage, createStagedImage } from '@staging/db/testing/factories';
import { AppError } from '@staging/domain/errors';
import { renderStagingPrompt } from '@staging/domain/prompt';
import type { StagingProducerDeps } from './staging-deps';
import { createRedis } from '@staging/platform/queues';
import { createStagingQueue } from './staging-queue';
import { submitStaging } from './submit-staging';
import {
  TEST_SUNSET_AT,
  fixedClock,
  producerDeps,
  seedListing,
  seedOtherAgent,
  uniqueQueueSuffix,
  useStagingTestContext,
} from './testing/staging-test-kit';
import type { SeededListing } from './testing/staging-test-kit';

const ctx = useStagingTestContext();
let deps: StagingProducerDeps;

beforeEach(async () => {
  deps = producerDeps({ db: ctx.db, stagingQueue: ctx.tq.queue, logger: ctx.log.logger });
});

async function codeOf(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  throw new Error('expected an AppError');
}

/** Stages the listing's original as a MODERN bedroom. */
function submitModernBedroom(listing: SeededListing) {
  return submitStaging(deps, {
    actor: listing.actor,
    assignments: [{ originalImageId: listing.originalImageId, roomType: 'BEDROOM', style: 'MODERN' }],
  });
}

async function jobCountFor(originalImageId: string): Promise<number> {
  return ctx.db.aiRoomStagingJob.count({ where: { originalImageId } });
}

describe('submitStaging', () => {
  it.each([false, undefined, 'true', 'TRUE', 1])(
    'with the flag %p creates no ai_jobs row and answers STAGING_UNAVAILABLE',
    async (flag) => {
      const listing = await seedListing(ctx.db);
      const off = { ...deps, staging: { ...deps.staging, enabled: flag as unknown as boolean } };
      const before = await ctx.db.aiJob.count({ where: { propertyId: listing.propertyId } });
      const code = await codeOf(
        submitStaging(off, {
          actor: listing.actor,
          assignments: [{ originalImageId: listing.originalImageId, roomType: 'BEDROOM', style: 'MODERN' }],
        }),
      );
      expect(code).toBe('STAGING_UNAVAILABLE');
      expect(await ctx.db.aiJob.count({ where: { propertyId: listing.propertyId } })).toBe(before);
      expect(await ctx.tq.queue.count()).toBe(0);
    },
  );

  it('writes the job, its audited inputs and the queue message; persists the room type (ENQUEUED)', async () => {
    const listing = await seedListing(ctx.db);
    const [item] = await submitStaging(deps, {
      actor: listing.actor,
      assignments: [{ originalImageId: listing.originalImageId, roomType: 'TV_ROOM', style: 'INDUSTRIAL' }],
    });
    expect(item).toEqual({
      originalImageId: listing.originalImageId,
      canonicalStyle: 'INDUSTRIAL',
      aiJobId: expect.any(String),
      disposition: 'ENQUEUED',
    });
    const aiJobId = item!.aiJobId!;
    const job = await ctx.db.aiJob.findUniqueOrThrow({
      where: { id: aiJobId },
      include: { staging: true, attempts: true },
    });
    expect(job).toMatchObject({
      type: 'ROOM_STAGING',
      status: 'PENDING',
      phase: 'QUEUED',
      dedupeKey: `${listing.originalImageId}:INDUSTRIAL`,
      propertyId: listing.propertyId,
      requestedByUserId: listing.actor.id,
    });
    expect(job.attempts).toEqual([]);
    expect(job.staging).toMatchObject({
      originalImageId: listing.originalImageId,
      propertyId: listing.propertyId,
      canonicalRoomType: 'TV_ROOM',
      canonicalStyle: 'INDUSTRIAL',
      submittedStyle: 'INDUSTRIAL',
      legacyStyle: null,
      legacyMetadata: null,
      providerModel: 'openai/gpt-image-2',
      promptVersion: 'staging-v2.1',
      prompt: renderStagingPrompt({ roomType: 'TV_ROOM', style: 'INDUSTRIAL' }),
      quality: 'medium',
      aspectRatio: '3:2',
      outputFormat: 'jpeg',
      outputCompression: 92,
    });
    expect(job.staging!.prompt).toContain('TV/media room');
    const original = await ctx.db.propertyImage.findUniqueOrThrow({ where: { id: listing.originalImageId } });
    expect(original.roomType).toBe('TV_ROOM');

    const message = await ctx.tq.queue.getJob(aiJobId);
    expect(message?.id).toBe(aiJobId);
    expect(message?.data).toEqual({ aiJobId, v: 1 });
    expect(await message?.getState()).toBe('waiting');
    expect(ctx.log.events('ai_room_staging.submitted')).toEqual([
      expect.objectContaining({
        jobId: aiJobId,
        disposition: 'ENQUEUED',
        canonicalStyle: 'INDUSTRIAL',
        roomType: 'TV_ROOM',
      }),
    ]);
  });

  it('audits a legacy alias until the sunset instant and refuses it one millisecond later', async () => {
    const listing = await seedListing(ctx.db);
    const atSunset = { ...deps, clock: fixedClock(TEST_SUNSET_AT) };
    const [item] = await submitStaging(atSunset, {
      actor: listing.actor,
      assignments: [{ originalImageId: listing.originalImageId, roomType: 'BEDROOM', style: ' Scandi ' }],
    });
    expect(item).toMatchObject({ canonicalStyle: 'SCANDINAVIAN', disposition: 'ENQUEUED' });
    const staging = await ctx.db.aiRoomStagingJob.findUniqueOrThrow({ where: { aiJobId: item!.aiJobId! } });
    expect(staging).toMatchObject({
      submittedStyle: ' Scandi ',
      legacyStyle: 'scandi',
      canonicalStyle: 'SCANDINAVIAN',
    });
    expect(staging.legacyMetadata).toEqual({
      alias: 'scandi',
      canonicalStyle: 'SCANDINAVIAN',
      sunsetAt: TEST_SUNSET_AT.toISOString(),
      acceptedAt: TEST_SUNSET_AT.toISOString(),
    });
    expect(ctx.log.events('ai_room_staging.submitted')[0]).toMatchObject({ legacyStyle: 'scandi' });

    const late = { ...deps, clock: fixedClock(new Date(TEST_SUNSET_AT.getTime() + 1)) };
    const error = await submitStaging(late, {
      actor: listing.actor,
      assignments: [{ originalImageId: listing.originalImageId, roomType: 'BEDROOM', style: 'beach' }],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'LEGACY_STYLE_RETIRED',
      issues: [{ path: ['assignments', 0, 'style'] }],
    });
    expect((error as AppError).message).toContain('COASTAL');
    expect(await jobCountFor(listing.originalImageId)).toBe(1);
  });

  it('refuses no-furniture and unknown styles without writing anything', async () => {
    const listing = await seedListing(ctx.db);
    const submit = (style: string) =>
      submitStaging(deps, {
        actor: listing.actor,
        assignments: [{ originalImageId: listing.originalImageId, roomType: 'OFFICE', style }],
      });
    expect(await codeOf(submit('no-furniture'))).toBe('STYLE_NOT_GENERATABLE');
    expect(await codeOf(submit('baroque'))).toBe('BAD_REQUEST');
    expect(await jobCountFor(listing.originalImageId)).toBe(0);
    const original = await ctx.db.propertyImage.findUniqueOrThrow({ where: { id: listing.originalImageId } });
    expect(original.roomType).toBe('LIVING_ROOM');
  });

  it('validates every assignment before writing any', async () => {
    const listing = await seedListing(ctx.db);
    const other = await seedListing(ctx.db);
    const error = await submitStaging(deps, {
      actor: listing.actor,
      assignments: [
        { originalImageId: listing.originalImageId, roomType: 'BEDROOM', style: 'MODERN' },
        { originalImageId: other.originalImageId, roomType: 'BEDROOM', style: 'MODERN' },
      ],
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'NOT_FOUND',
      message: 'Image not found',
      issues: [{ path: ['assignments', 1, 'originalImageId'] }],
    });
    expect(await jobCountFor(listing.originalImageId)).toBe(0);
    expect(
      (await ctx.db.propertyImage.findUniqueOrThrow({ where: { id: listing.originalImageId } })).roomType,
    ).toBe('LIVING_ROOM');
    expect(await codeOf(submitStaging(deps, { actor: listing.actor, assignments: [] }))).toBe('BAD_REQUEST');
    expect(
      await codeOf(
        submitStaging(deps, {
          actor: listing.actor,
          assignments: [
            { originalImageId: listing.originalImageId, roomType: 'GARAGE' as 'OFFICE', style: 'MODERN' },
          ],
        }),
      ),
    ).toBe('BAD_REQUEST');
  });

  it('answers NOT_FOUND alike for an unrelated agent and a missing image, and refuses staged variants', async () => {
    const listing = await seedListing(ctx.db);
    const stranger = await seedOtherAgent(ctx.db);
    const asStranger = await submitStaging(deps, {
      actor: stranger,
      assignments: [{ originalImageId: listing.originalImageId, roomType: 'BEDROOM', style: 'MODERN' }],
    }).catch((e: unknown) => e);
    const missing = await submitStaging(deps, {
      actor: listing.actor,
      assignments: [
        { originalImageId: '00000000-0000-4000-8000-000000000000', roomType: 'BEDROOM', style: 'MODERN' },
      ],
    }).catch((e: unknown) => e);
    expect(asStranger).toMatchObject({ code: 'NOT_FOUND', message: 'Image not found' });
    expect(missing).toMatchObject({ code: 'NOT_FOUND', message: 'Image not found' });

    const staged = await createStagedImage(ctx.db, {
      original: { id: listing.originalImageId, propertyId: listing.propertyId },
      canonicalStyle: 'COASTAL',
    });
    expect(
      await codeOf(
        submitStaging(deps, {
          actor: listing.actor,
          assignments: [{ originalImageId: staged.id, roomType: 'BEDROOM', style: 'MODERN' }],
        }),
      ),
    ).toBe('BAD_REQUEST');
    expect(await ctx.db.aiJob.count({ where: { propertyId: listing.propertyId } })).toBe(0);
  });

  it.each(['PENDING_REVIEW', 'APPROVED'] as const)(
    'answers style_exists for a live %s variant of that style and creates no job',
    async (reviewStatus) => {
      const listing = await seedListing(ctx.db);
      const variant = await createStagedImage(ctx.db, {
        original: { id: listing.originalImageId, propertyId: listing.propertyId },
        canonicalStyle: 'FARMHOUSE',
        reviewStatus,
      });
      const items = await submitStaging(deps, {
        actor: listing.actor,
        assignments: [
          { originalImageId: listing.originalImageId, roomType: 'KITCHEN', style: 'FARMHOUSE' },
          { originalImageId: listing.originalImageId, roomType: 'KITCHEN', style: 'COASTAL' },
        ],
      });
      expect(items.map((i) => [i.canonicalStyle, i.disposition, i.aiJobId])).toEqual([
        ['FARMHOUSE', 'style_exists', variant.aiJobId],
        ['COASTAL', 'ENQUEUED', expect.any(String)],
      ]);
      expect(await jobCountFor(listing.originalImageId)).toBe(1);
      const original = await ctx.db.propertyImage.findUniqueOrThrow({
        where: { id: listing.originalImageId },
      });
      expect(original.roomType).toBe('KITCHEN');
    },
  );

  it('answers EXISTING with the same job for a repeat, whatever the room type', async () => {
    const listing = await seedListing(ctx.db);
    const submit = (roomType: 'BEDROOM' | 'OFFICE', style: string) =>
      submitStaging(deps, {
        actor: listing.actor,
        assignments: [{ originalImageId: listing.originalImageId, roomType, style }],
      });
    const [first] = await submit('BEDROOM', 'MID_CENTURY');
    const [second] = await submit('OFFICE', 'retro');
    expect(second).toEqual({ ...first, disposition: 'EXISTING' });
    expect(await jobCountFor(listing.originalImageId)).toBe(1);
  });

  it("lets the worker pick up another agent's single photo before the tail of a batch submitted earlier", async () => {
    const a = await seedListing(ctx.db);
    const photos = [a.originalImageId, ...(await Promise.all([1, 2].map(async () => (await createOriginalImage(ctx.db, { propertyId: a.propertyId })).id)))];
    const batch = await submitStaging(deps, { actor: a.actor, assignments: photos.map((originalImageId) => ({ originalImageId, roomType: 'BEDROOM', style: 'MODERN' })) });
    const b = await seedListing(ctx.db);
    const [single] = await submitModernBedroom(b);

    const picked: string[] = [];
    let allPicked!: () => void;
    const done = new Promise<void>((resolve) => (allPicked = resolve));
    const worker = new Worker(
      ctx.tq.name,
      async (job) => {
        picked.push(job.id!);
        if (picked.length === 4) allPicked();
      },
      { connection: ctx.redis.duplicate({ maxRetriesPerRequest: null }), concurrency: 1 },
    );
    try {
      await done;
    } finally {
      await worker.close();
    }
    const ids = batch.map((item) => item.aiJobId!);
    expect(picked).toEqual([ids[0], single!.aiJobId, ids[1], ids[2]]);
  });

  it('re-adds the message of an EXISTING job that is still PENDING when its message was lost', async () => {
    const listing = await seedListing(ctx.db);
    const submit = () => submitModernBedroom(listing);
    const [first] = await submit();
    await ctx.tq.deleteKeys();
    const [second] = await submit();
    expect(second).toMatchObject({ aiJobId: first!.aiJobId, disposition: 'EXISTING' });
    expect(await ctx.tq.queue.getJobState(first!.aiJobId!)).toBe('waiting');
  });

  it('under 10 concurrent duplicate submissions creates one job: one ENQUEUED, nine EXISTING with its ID', async () => {
    const listing = await seedListing(ctx.db);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        submitStaging(deps, {
          actor: listing.actor,
          assignments: [{ originalImageId: listing.originalImageId, roomType: 'BEDROOM', style: 'COASTAL' }],
        }),
      ),
    );
    const items = results.map(([item]) => item!);
    const enqueued = items.filter((i) => i.disposition === 'ENQUEUED');
    const existing = items.filter((i) => i.disposition === 'EXISTING');
    expect(enqueued).toHaveLength(1);
    expect(existing).toHaveLength(9);
    expect(new Set(items.map((i) => i.aiJobId))).toEqual(new Set([enqueued[0]!.aiJobId]));
    expect(await ctx.db.aiJob.count({ where: { dedupeKey: `${listing.originalImageId}:COASTAL` } })).toBe(1);
    expect(await ctx.tq.queue.getJobCounts('waiting')).toEqual({ waiting: 1 });
  });

  it('creates a new job once the previous one for the key is terminal', async () => {
    const listing = await seedListing(ctx.db);
    const submit = () => submitModernBedroom(listing);
    const [first] = await submit();
    await ctx.db.aiJob.update({
      where: { id: first!.aiJobId! },
      data: { status: 'FAILED', errorCode: 'PROVIDER_AUTH' },
    });
    const [second] = await submit();
    expect(second!.disposition).toBe('ENQUEUED');
    expect(second!.aiJobId).not.toBe(first!.aiJobId);
  });

  it('keeps the committed job PENDING and logs when the queue store is unreachable', async () => {
    const listing = await seedListing(ctx.db);
    // Nothing listens on port 1: the producer connection never becomes ready.
    const deadRedis = createRedis('redis://127.0.0.1:1', { role: 'producer', onError: () => undefined });
    const deadQueue = createStagingQueue(deadRedis, uniqueQueueSuffix());
    try {
      // The queue call gives up after QUEUE_CALL_TIMEOUT_MS; the Jest timeout only guards a hang.
      const [item] = await submitStaging(
        { ...deps, stagingQueue: deadQueue },
        {
          actor: listing.actor,
          assignments: [{ originalImageId: listing.originalImageId, roomType: 'BEDROOM', style: 'MODERN' }],
        },
      );
      expect(item!.disposition).toBe('ENQUEUED');
      const job = await ctx.db.aiJob.findUniqueOrThrow({ where: { id: item!.aiJobId! } });
      expect(job.status).toBe('PENDING');
      expect(ctx.log.events('ai_room_staging.enqueue_failed')).toEqual([
        expect.objectContaining({ jobId: item!.aiJobId }),
      ]);
    } finally {
      deadRedis.disconnect();
    }
  });
});
