import { createStagedImage } from '@staging/db/testing/factories';
import {
  fixedClock,
  seedListing,
  seedOtherAgent,
  useStagingTestContext,
} from '../staging/testing/staging-test-kit';
import { materializeLegacyStagingMessage, normalizeLegacyRoomType } from './legacy-stage-room';
import type { LegacyBridgeDeps, TLegacyStageRoomMessage } from './legacy-stage-room';

const ctx = useStagingTestContext();
const SUNSET = new Date('2027-01-31T23:59:59.999Z');
// Deliberately unlike the test kit's producer defaults, so the test proves whose values are used.
const WORKER_VALUES = {
  quality: 'high',
  aspectRatio: '2:3',
  outputFormat: 'png',
  outputCompression: 77,
} as const;

const clock = fixedClock(new Date('2026-12-01T12:00:00.000Z'));

beforeEach(async () => {
  clock.set(new Date('2026-12-01T12:00:00.000Z'));
});

function bridgeDeps(staging: Partial<LegacyBridgeDeps['staging']> = {}): LegacyBridgeDeps {
  return {
    db: ctx.db,
    stagingQueue: ctx.tq.queue,
    logger: ctx.log.logger,
    clock,
    staging: {
      enabled: true,
      dailyPurchaseCap: null,
      producer: WORKER_VALUES,
      legacyAliasSunsetAt: SUNSET,
      providerModel: 'openai/gpt-image-2',
      ...staging,
    },
  };
}

function message(
  listing: { originalImageId: string; actor: { id: string } },
  overrides: Partial<TLegacyStageRoomMessage> = {},
): TLegacyStageRoomMessage {
  return {
    imageId: listing.originalImageId,
    style: 'Scandi',
    roomType: 'living room',
    requestedByUserId: listing.actor.id,
    submittedAt: '2026-12-01T11:59:00.000Z',
    ...overrides,
  };
}

async function stagingRowsFor(originalImageId: string) {
  return ctx.db.aiRoomStagingJob.findMany({ where: { originalImageId }, include: { aiJob: true } });
}

describe('legacy stage-room bridge', () => {
  it('materializes a v1 message into a v2 job with the worker producer values and the audit fields', async () => {
    const listing = await seedListing(ctx.db);
    const outcome = await materializeLegacyStagingMessage(bridgeDeps(), message(listing), {
      queueJobId: 'legacy-1',
    });

    expect(outcome).toMatchObject({
      kind: 'materialized',
      item: { disposition: 'ENQUEUED', canonicalStyle: 'SCANDINAVIAN' },
    });
    const [row] = await stagingRowsFor(listing.originalImageId);
    expect(row).toMatchObject({
      canonicalStyle: 'SCANDINAVIAN',
      canonicalRoomType: 'LIVING_ROOM',
      submittedStyle: 'Scandi',
      legacyStyle: 'scandi',
      quality: 'high',
      aspectRatio: '2:3',
      outputFormat: 'png',
      outputCompression: 77,
      providerModel: 'openai/gpt-image-2',
      requestedByUserId: listing.actor.id,
    });
    expect(row!.legacyMetadata).toMatchObject({
      alias: 'scandi',
      canonicalStyle: 'SCANDINAVIAN',
      bridge: {
        source: 'legacy-queue',
        queueJobId: 'legacy-1',
        submittedAt: '2026-12-01T11:59:00.000Z',
        roomType: 'living room',
      },
    });
    expect(row!.aiJob).toMatchObject({ type: 'ROOM_STAGING', status: 'PENDING' });
    // The v2 message is on ai-staging with the job ID as queue ID.
    expect(await ctx.tq.queue.getJobState(row!.aiJobId)).toBe('waiting');
    expect(ctx.log.events('legacy_bridge.materialized')).toHaveLength(1);
  });

  it('accepts an alias at the sunset instant and refuses it one millisecond later', async () => {
    const atSunset = await seedListing(ctx.db);
    clock.set(new Date(SUNSET.getTime()));
    expect(
      await materializeLegacyStagingMessage(bridgeDeps(), message(atSunset, { style: 'Retro' }), {
        queueJobId: null,
      }),
    ).toMatchObject({
      kind: 'materialized',
      item: { canonicalStyle: 'MID_CENTURY', disposition: 'ENQUEUED' },
    });

    const after = await seedListing(ctx.db);
    clock.set(new Date(SUNSET.getTime() + 1));
    const refused = await materializeLegacyStagingMessage(bridgeDeps(), message(after, { style: 'Retro' }), {
      queueJobId: null,
    });
    expect(refused).toMatchObject({ kind: 'rejected', code: 'LEGACY_STYLE_RETIRED' });
    expect(refused.kind === 'rejected' && refused.message).toContain('MID_CENTURY');
    expect(await stagingRowsFor(after.originalImageId)).toHaveLength(0);
    expect(ctx.log.events('legacy_bridge.rejected')[0]).toMatchObject({
      code: 'LEGACY_STYLE_RETIRED',
      submittedStyle: 'Retro',
    });
  });

  it('refuses aliases when the worker has no sunset configured, but still bridges canonical names', async () => {
    const listing = await seedListing(ctx.db);
    const deps = bridgeDeps({ legacyAliasSunsetAt: null });
    expect(
      await materializeLegacyStagingMessage(deps, message(listing, { style: 'loft' }), { queueJobId: null }),
    ).toMatchObject({
      kind: 'rejected',
      code: 'LEGACY_STYLE_RETIRED',
    });
    expect(
      await materializeLegacyStagingMessage(deps, message(listing, { style: 'INDUSTRIAL' }), {
        queueJobId: null,
      }),
    ).toMatchObject({
      kind: 'materialized',
      item: { canonicalStyle: 'INDUSTRIAL' },
    });
    const [row] = await stagingRowsFor(listing.originalImageId);
    expect(row).toMatchObject({ submittedStyle: 'INDUSTRIAL', legacyStyle: null });
  });

  it('never generates no-furniture, in any spelling', async () => {
    const listing = await seedListing(ctx.db);
    for (const style of ['no-furniture', ' No-Furniture ']) {
      expect(
        await materializeLegacyStagingMessage(bridgeDeps(), message(listing, { style }), {
          queueJobId: null,
        }),
      ).toMatchObject({
        kind: 'rejected',
        code: 'STYLE_NOT_GENERATABLE',
      });
    }
    expect(await stagingRowsFor(listing.originalImageId)).toHaveLength(0);
    expect(await ctx.tq.queue.count()).toBe(0);
  });

  it('defers without writing anything while the kill switch is off', async () => {
    const listing = await seedListing(ctx.db);
    expect(
      await materializeLegacyStagingMessage(bridgeDeps({ enabled: false }), message(listing), {
        queueJobId: null,
      }),
    ).toEqual({ kind: 'deferred' });
    expect(await stagingRowsFor(listing.originalImageId)).toHaveLength(0);
  });

  it('uses the room type persisted on the original when the message has none', async () => {
    const listing = await seedListing(ctx.db);
    await ctx.db.propertyImage.update({
      where: { id: listing.originalImageId },
      data: { roomType: 'TV_ROOM' },
    });
    await materializeLegacyStagingMessage(bridgeDeps(), message(listing, { roomType: undefined }), {
      queueJobId: null,
    });
    const [row] = await stagingRowsFor(listing.originalImageId);
    expect(row?.canonicalRoomType).toBe('TV_ROOM');
  });

  it('authorizes the requesting agent like any producer does', async () => {
    const listing = await seedListing(ctx.db);
    const stranger = await seedOtherAgent(ctx.db);
    expect(
      await materializeLegacyStagingMessage(
        bridgeDeps(),
        message(listing, { requestedByUserId: stranger.id }),
        { queueJobId: null },
      ),
    ).toMatchObject({ kind: 'rejected', code: 'NOT_FOUND' });
    expect(
      await materializeLegacyStagingMessage(
        bridgeDeps(),
        message(listing, { requestedByUserId: 'gone-user' }),
        { queueJobId: null },
      ),
    ).toMatchObject({
      kind: 'rejected',
      code: 'NOT_FOUND',
    });
    expect(await stagingRowsFor(listing.originalImageId)).toHaveLength(0);
  });

  it('a redelivered message finds its own job (EXISTING) and a live variant gives style_exists', async () => {
    const listing = await seedListing(ctx.db);
    const first = await materializeLegacyStagingMessage(bridgeDeps(), message(listing), {
      queueJobId: 'q-1',
    });
    const again = await materializeLegacyStagingMessage(bridgeDeps(), message(listing), {
      queueJobId: 'q-1',
    });
    expect(first.kind === 'materialized' && again.kind === 'materialized').toBe(true);
    if (first.kind !== 'materialized' || again.kind !== 'materialized') return;
    expect(again.item).toMatchObject({ disposition: 'EXISTING', aiJobId: first.item.aiJobId });
    expect(await stagingRowsFor(listing.originalImageId)).toHaveLength(1);

    const other = await seedListing(ctx.db);
    await createStagedImage(ctx.db, {
      original: { id: other.originalImageId, propertyId: other.propertyId },
      canonicalStyle: 'COASTAL',
    });
    const exists = await materializeLegacyStagingMessage(bridgeDeps(), message(other, { style: 'beach' }), {
      queueJobId: null,
    });
    expect(exists).toMatchObject({ kind: 'materialized', item: { disposition: 'style_exists' } });
  });
});

describe('normalizeLegacyRoomType', () => {
  it.each([
    ['living room', 'LIVING_ROOM'],
    [' Living_Room ', 'LIVING_ROOM'],
    ['TV room', 'TV_ROOM'],
    ['media-room', 'TV_ROOM'],
    ['KITCHEN', 'KITCHEN'],
    ['study', 'OFFICE'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeLegacyRoomType(input)).toBe(expected);
  });

  it('keeps a TV room a TV room and refuses unknown text', () => {
    expect(normalizeLegacyRoomType('tv room')).not.toBe('LIVING_ROOM');
    expect(normalizeLegacyRoomType('garage')).toBeNull();
  });
});
