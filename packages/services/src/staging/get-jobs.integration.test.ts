import {
  createOriginalImage,
  createProperty,
  createProviderAttempt,
  createStagedImage,
  createUser,
} from '@staging/db/testing/factories';
import { AppError } from '@staging/domain/errors';
import { WAITING_FOR_START_SLOT } from '@staging/domain/start-line';
import { getStagingJob, listStagingJobs } from './get-jobs';
import { submitStaging } from './submit-staging';
import { seedListing, seedOtherAgent, testPaidStartLimiter, useProducerTestContext } from './testing/staging-test-kit';
import type { Actor } from '../access/property-access';

const ctx = useProducerTestContext(new Date('2026-12-02T08:00:00.000Z'));

async function submit(
  actor: Actor,
  originalImageId: string,
  style: string,
  roomType: 'BEDROOM' | 'TV_ROOM' = 'BEDROOM',
): Promise<string> {
  const [item] = await submitStaging(ctx.deps, {
    actor,
    assignments: [{ originalImageId, roomType, style }],
  });
  return item!.aiJobId!;
}

function tick(ms: number): void {
  ctx.clock.set(new Date(ctx.clock.now().getTime() + ms));
}

describe('getStagingJob', () => {
  it('shows status, attempts, timings, cost and the result of a finished job', async () => {
    const listing = await seedListing(ctx.db);
    const aiJobId = await submit(listing.actor, listing.originalImageId, 'MID_CENTURY', 'TV_ROOM');
    const created = ctx.clock.now().getTime();
    await createProviderAttempt(ctx.db, {
      aiJobId,
      attemptNumber: 1,
      status: 'FAILED',
      providerStatus: 'failed',
      errorCode: 'PROVIDER_FAILED',
      costMicrousd: 40_000,
      providerPredictionId: `pred-1-${aiJobId}`,
    });
    await createProviderAttempt(ctx.db, {
      aiJobId,
      attemptNumber: 2,
      status: 'SUCCEEDED',
      providerStatus: 'succeeded',
      costMicrousd: 42_000,
      providerPredictionId: `pred-2-${aiJobId}`,
    });
    const result = await createStagedImage(ctx.db, {
      original: { id: listing.originalImageId, propertyId: listing.propertyId },
      canonicalStyle: 'MID_CENTURY',
      aiJobId,
    });
    await ctx.db.aiRoomStagingJob.update({ where: { aiJobId }, data: { resultImageId: result.id } });
    await ctx.db.aiJob.update({
      where: { id: aiJobId },
      data: {
        status: 'SUCCESS',
        phase: 'FINALIZED',
        startedAt: new Date(created + 1_500),
        completedAt: new Date(created + 61_500),
      },
    });
    tick(3_600_000);

    expect(await getStagingJob(ctx.deps, { actor: listing.actor, aiJobId })).toEqual({
      aiJobId,
      propertyId: listing.propertyId,
      status: 'SUCCESS',
      phase: 'FINALIZED',
      submissionId: expect.any(String),
      errorCode: null,
      originalImageId: listing.originalImageId,
      resultImageId: result.id,
      canonicalStyle: 'MID_CENTURY',
      roomType: 'TV_ROOM',
      attempts: [
        {
          attemptNumber: 1,
          status: 'FAILED',
          providerStatus: 'failed',
          errorCode: 'PROVIDER_FAILED',
          costMicrousd: 40_000,
          purchase: 'BOUGHT',
        },
        {
          attemptNumber: 2,
          status: 'SUCCEEDED',
          providerStatus: 'succeeded',
          errorCode: null,
          costMicrousd: 42_000,
          purchase: 'BOUGHT',
        },
      ],
      timings: {
        createdAt: '2026-12-02T08:00:00.000Z',
        startedAt: '2026-12-02T08:00:01.500Z',
        completedAt: '2026-12-02T08:01:01.500Z',
        cancelRequestedAt: null,
        canceledAt: null,
        elapsedMs: 61_500,
      },
      costEstimateMicrousd: 82_000,
      placeInLine: null,
    });
  });

  it('shows an open job without a cost estimate, its elapsed time running to now', async () => {
    const listing = await seedListing(ctx.db);
    const aiJobId = await submit(listing.actor, listing.originalImageId, 'MODERN');
    await createProviderAttempt(ctx.db, { aiJobId, status: 'ACTIVE', providerStatus: 'processing', providerPredictionId: `pred-${aiJobId}` });
    await ctx.db.aiJob.update({ where: { id: aiJobId }, data: { status: 'PROCESSING' } });
    tick(12_345);
    const dto = await getStagingJob(ctx.deps, { actor: listing.actor, aiJobId });
    expect(dto).toMatchObject({ status: 'PROCESSING', resultImageId: null, costEstimateMicrousd: null });
    expect(dto.timings).toMatchObject({ completedAt: null, elapsedMs: 12_345 });
    expect(dto.attempts).toEqual([
      {
        attemptNumber: 1,
        status: 'ACTIVE',
        providerStatus: 'processing',
        errorCode: null,
        costMicrousd: null,
        purchase: 'BOUGHT',
      },
    ]);
  });

  it('places a job waiting for a start slot in the line, as the workers keep it', async () => {
    const listing = await seedListing(ctx.db);
    const first = await createOriginalImage(ctx.db, { propertyId: listing.propertyId });
    const [ahead, waiting] = [await submit(listing.actor, first.id, 'MODERN'), await submit(listing.actor, listing.originalImageId, 'MODERN')];
    await ctx.db.aiJob.updateMany({ where: { id: { in: [ahead, waiting] } }, data: { status: 'PROCESSING', phase: WAITING_FOR_START_SLOT } });
    const limiter = testPaidStartLimiter(ctx.redis, ctx.tq);
    // Another job took the slot just now; these two wait one and two intervals (10 s each).
    await limiter.tryAcquire({ tokenId: 'other', jobId: 'other', party: 'someone-else' });
    await limiter.tryAcquire({ tokenId: 't1', jobId: ahead, party: listing.actor.id });
    await limiter.tryAcquire({ tokenId: 't2', jobId: waiting, party: listing.actor.id });

    const dto = await getStagingJob(ctx.deps, { actor: listing.actor, aiJobId: waiting });
    expect(dto.placeInLine).toEqual({ position: 2, expectedStartAt: expect.any(String) });
    const page = await listStagingJobs(ctx.deps, { actor: listing.actor, propertyId: listing.propertyId, limit: 10 });
    const places = new Map(page.items.map((item) => [item.aiJobId, item.placeInLine]));
    expect(places.get(ahead)?.position).toBe(1);
    expect(Date.parse(places.get(waiting)!.expectedStartAt) - Date.parse(places.get(ahead)!.expectedStartAt)).toBe(10_000);

    // Out of the line (it started, or it ended), a job has no place, whatever its phase still says.
    await limiter.leave(waiting);
    expect((await getStagingJob(ctx.deps, { actor: listing.actor, aiJobId: waiting })).placeInLine).toBeNull();
  });

  it('answers NOT_FOUND to an unrelated agent', async () => {
    const listing = await seedListing(ctx.db);
    const aiJobId = await submit(listing.actor, listing.originalImageId, 'MODERN');
    const error = await getStagingJob(ctx.deps, { actor: await seedOtherAgent(ctx.db), aiJobId }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', message: 'Staging job not found' });
  });
});

describe('listStagingJobs', () => {
  it("lists the actor's jobs newest first with filters and stable keyset pages", async () => {
    const agent = await createUser(ctx.db);
    const actor: Actor = { id: agent.id, role: 'AGENT' };
    const owned = await createProperty(ctx.db, { ownerAgentId: agent.id });
    const someoneElse = await createUser(ctx.db);
    const assigned = await createProperty(ctx.db, {
      ownerAgentId: someoneElse.id,
      assignedAgentIds: [agent.id],
    });
    const foreign = await createProperty(ctx.db, { ownerAgentId: someoneElse.id });
    const [o1, o2, a1, f1] = await Promise.all(
      [owned, owned, assigned, foreign].map((p) => createOriginalImage(ctx.db, { propertyId: p.id })),
    );

    const ids: string[] = [];
    for (const [original, style] of [
      [o1, 'MODERN'],
      [o2, 'COASTAL'],
      [a1, 'FARMHOUSE'],
      [o1, 'INDUSTRIAL'],
    ] as const) {
      ids.push(await submit(actor, original!.id, style));
      tick(1_000);
    }
    await submit({ id: someoneElse.id, role: 'AGENT' }, f1!.id, 'MODERN');
    await ctx.db.aiJob.update({
      where: { id: ids[1]! },
      data: { status: 'CANCELED', canceledAt: ctx.clock.now() },
    });

    const all = await listStagingJobs(ctx.deps, { actor, limit: 10 });
    expect(all.items.map((j) => j.aiJobId)).toEqual([...ids].reverse());
    expect(all.nextCursor).toBeNull();

    const page1 = await listStagingJobs(ctx.deps, { actor, limit: 3 });
    expect(page1.items.map((j) => j.aiJobId)).toEqual([ids[3], ids[2], ids[1]]);
    // A job created after the first page does not shift the second one.
    await submit(actor, o2!.id, 'SCANDINAVIAN');
    const page2 = await listStagingJobs(ctx.deps, { actor, limit: 3, cursor: page1.nextCursor! });
    expect(page2.items.map((j) => j.aiJobId)).toEqual([ids[0]]);
    expect(page2.nextCursor).toBeNull();

    const ownedOnly = await listStagingJobs(ctx.deps, {
      actor,
      propertyId: owned.id,
      statuses: ['PENDING'],
      limit: 10,
    });
    expect(ownedOnly.items.map((j) => j.aiJobId)).toEqual(expect.arrayContaining([ids[3], ids[0]]));
    expect(ownedOnly.items.every((j) => j.status === 'PENDING' && j.propertyId === owned.id)).toBe(true);
    expect(ownedOnly.items).toHaveLength(3);

    const canceled = await listStagingJobs(ctx.deps, { actor, statuses: ['CANCELED'], limit: 10 });
    expect(canceled.items.map((j) => j.aiJobId)).toEqual([ids[1]]);

    const foreignList = await listStagingJobs(ctx.deps, { actor, propertyId: foreign.id, limit: 10 }).catch(
      (e: unknown) => e,
    );
    expect(foreignList).toMatchObject({ code: 'NOT_FOUND' });

    const asAdmin = await listStagingJobs(ctx.deps, {
      actor: { id: someoneElse.id, role: 'ADMIN' },
      propertyId: owned.id,
      limit: 10,
    });
    expect(asAdmin.items).toHaveLength(4);
  });

  it('refuses invalid limits, statuses and cursors', async () => {
    const listing = await seedListing(ctx.db);
    for (const input of [
      { limit: 0 },
      { limit: 101 },
      { limit: 10, statuses: ['DONE' as 'PENDING'] },
      { limit: 10, cursor: 'bm90LWEtY3Vyc29y' },
    ]) {
      const error = await listStagingJobs(ctx.deps, { actor: listing.actor, ...input }).catch(
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: 'BAD_REQUEST' });
    }
  });
});

describe('listStagingJobs over many properties', () => {
  /**
   * `count` properties of `owner` (plus `assigned` of another agent, one of them also listing the
   * owner as assigned), each with `jobsEach` jobs at distinct instants; returns every job the
   * owner may see, newest first, as the list must give them.
   */
  async function seedPortfolio(count: number, jobsEach: number): Promise<{ actor: Actor; expected: { id: string; status: string }[] }> {
    const owner = await createUser(ctx.db);
    const other = await createUser(ctx.db);
    const tag = owner.id.slice(0, 8);
    await ctx.db.$executeRaw`
      INSERT INTO "properties" ("id", "ownerAgentId", "title", "address", "city")
      SELECT ${tag} || '-p' || n, CASE WHEN n <= ${count} THEN ${owner.id} ELSE ${other.id} END, 'P' || n, 'A', 'C'
      FROM generate_series(1, ${count + 3}) n`;
    // Two of the other agent's properties are assigned to the owner, and one of the owner's own
    // lists the owner as assigned too (it must not show twice).
    await ctx.db.$executeRaw`
      INSERT INTO "property_agents" ("propertyId", "userId")
      VALUES (${tag} || '-p' || ${count + 1}, ${owner.id}), (${tag} || '-p' || ${count + 2}, ${owner.id}), (${tag} || '-p1', ${owner.id})`;
    await ctx.db.$executeRaw`
      INSERT INTO "ai_jobs" ("id", "type", "status", "propertyId", "createdAt", "updatedAt")
      SELECT ${tag} || '-j' || n, 'ROOM_STAGING', (CASE WHEN n % 3 = 0 THEN 'FAILED' ELSE 'SUCCESS' END)::"AiJobStatus",
        ${tag} || '-p' || (1 + (n - 1) / ${jobsEach}),
        timestamptz '2026-01-01' + make_interval(secs => (n * 7919) % 100003), now()
      FROM generate_series(1, ${(count + 3) * jobsEach}) n`;
    const expected = await ctx.db.$queryRaw<{ id: string; status: string }[]>`
      SELECT j."id", j."status"::text AS "status" FROM "ai_jobs" j
      WHERE j."id" LIKE ${tag} || '-j%' AND j."propertyId" <> ${tag} || '-p' || ${count + 3}
      ORDER BY j."createdAt" DESC, j."id" DESC`;
    return { actor: { id: owner.id, role: 'AGENT' }, expected };
  }

  async function everyPage(actor: Actor, options: { limit: number; statuses?: ('FAILED' | 'SUCCESS')[] }): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listStagingJobs(ctx.deps, { actor, ...options, ...(cursor === undefined ? {} : { cursor }) });
      ids.push(...page.items.map((job) => job.aiJobId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return ids;
  }

  // 3 properties take the per-property merge; 201 the walk of every job (MERGE_MAX_PROPERTIES).
  it.each([3, 201])('pages through the jobs of an agent with %i properties and its assignments, each job once', async (count) => {
    const { actor, expected } = await seedPortfolio(count, 4);
    expect(await everyPage(actor, { limit: 7 })).toEqual(expected.map((job) => job.id));
    expect(await everyPage(actor, { limit: 5, statuses: ['FAILED'] })).toEqual(expected.filter((job) => job.status === 'FAILED').map((job) => job.id));
  });
});
