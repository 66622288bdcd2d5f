import { startApi } from './support/api-test-kit';
import { seedListing, trpc, useApiTestContext } from './support/fixtures';

const api = useApiTestContext();

async function approvedEvents(imageId: string): Promise<number> {
  return api.db.propertyImageReviewEvent.count({ where: { imageId, kind: 'APPROVED' } });
}

async function rebuildsQueued(propertyId: string): Promise<number> {
  const jobs = await api.searchQueue.getJobs(['waiting', 'delayed', 'active', 'completed']);
  return jobs.filter((job) => job.data.propertyId === propertyId).length;
}

function approve(imageId: string, cookie: string) {
  return trpc(api.url, 'mutation', 'ai.approveStagedVariant', { imageId }, cookie);
}

function reject(imageId: string, cookie: string, reason?: string) {
  return trpc(api.url, 'mutation', 'ai.rejectStagedVariant', { imageId, reason }, cookie);
}

/** `url` is this file's app unless a test starts one with other settings. */
function submit(assignment: { originalImageId: string; roomType: string; style: string }, cookie: string, url = api.url) {
  return trpc(url, 'mutation', 'ai.submitStaging', { assignments: [assignment] }, cookie);
}

function submittedItems(response: Awaited<ReturnType<typeof trpc>>) {
  return (response.body.result?.data as { items: { disposition: string; aiJobId: string; canonicalStyle: string }[] }).items;
}

describe('ai.approveStagedVariant', () => {
  it('approves a pending variant: reviewer, time, one event, search rebuild, log event', async () => {
    const listing = await seedListing(api.db, api.storage, api.actors);
    const before = Date.now();
    const response = await approve(listing.pending.id, api.actors.cookies.assigned);
    expect(response.status).toBe(200);
    expect(response.body.result?.data).toMatchObject({
      changed: true,
      image: { id: listing.pending.id, reviewStatus: 'APPROVED', reviewedByUserId: api.actors.assigned.id, isStyled: true, isMain: false },
    });
    const row = await api.db.propertyImage.findUniqueOrThrow({ where: { id: listing.pending.id } });
    expect(row.reviewStatus).toBe('APPROVED');
    expect(row.reviewedByUserId).toBe(api.actors.assigned.id);
    expect(row.reviewedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const events = await api.db.propertyImageReviewEvent.findMany({ where: { imageId: listing.pending.id } });
    expect(events).toEqual([expect.objectContaining({ kind: 'APPROVED', actorUserId: api.actors.assigned.id, aiJobId: null, reason: null })]);
    expect(await rebuildsQueued(listing.propertyId)).toBeGreaterThan(0);
    expect(api.logs.events('ai_room_staging.variant_approved').filter((line) => line['imageId'] === listing.pending.id)).toHaveLength(1);
  });

  it('approving twice leaves exactly one APPROVED event', async () => {
    const listing = await seedListing(api.db, api.storage, api.actors);
    const first = await approve(listing.pending.id, api.actors.cookies.owner);
    const second = await approve(listing.pending.id, api.actors.cookies.assigned);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body.result?.data).toMatchObject({ changed: false, image: { reviewedByUserId: api.actors.owner.id } });
    expect(await approvedEvents(listing.pending.id)).toBe(1);
    expect(api.logs.events('ai_room_staging.variant_approved').filter((line) => line['imageId'] === listing.pending.id)).toHaveLength(1);
  });

  it('concurrent approvals leave exactly one APPROVED event', async () => {
    const listing = await seedListing(api.db, api.storage, api.actors);
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        approve(listing.pending.id, i % 2 === 0 ? api.actors.cookies.owner : api.actors.cookies.assigned),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(responses.filter((r) => (r.body.result?.data as { changed: boolean }).changed)).toHaveLength(1);
    expect(await approvedEvents(listing.pending.id)).toBe(1);
  });

  it.each(['unrelated', 'admin'] as const)('answers NOT_FOUND to the %s user and changes nothing', async (who) => {
    const listing = await seedListing(api.db, api.storage, api.actors);
    const response = await approve(listing.pending.id, api.actors.cookies[who]);
    expect(response.status).toBe(404);
    expect(response.body.error?.data.appCode).toBe('NOT_FOUND');
    expect(response.body.error?.message).toBe('Staged image not found');
    expect((await api.db.propertyImage.findUniqueOrThrow({ where: { id: listing.pending.id } })).reviewStatus).toBe('PENDING_REVIEW');
    expect(await approvedEvents(listing.pending.id)).toBe(0);
  });

  it('answers an original like a missing image', async () => {
    const listing = await seedListing(api.db, api.storage, api.actors);
    const response = await approve(listing.original.id, api.actors.cookies.owner);
    expect(response.status).toBe(404);
  });
});

describe('ai.rejectStagedVariant', () => {
  it('writes REJECTED first, deletes the row, schedules exactly one STAGED_IMAGE_DELETED, and frees the style', async () => {
    const listing = await seedListing(api.db, api.storage, api.actors);
    const blocked = await submit({ originalImageId: listing.original.id, roomType: 'LIVING_ROOM', style: 'MODERN' }, api.actors.cookies.owner);
    expect(blocked.status).toBe(200);
    expect(submittedItems(blocked)[0]?.disposition).toBe('style_exists');

    const response = await reject(listing.pending.id, api.actors.cookies.assigned, '  Furniture blocks the window  ');
    expect(response.status).toBe(200);
    expect(response.body.result?.data).toEqual({ imageId: listing.pending.id, aiJobId: null, previousReviewStatus: 'PENDING_REVIEW' });

    expect(await api.db.propertyImage.count({ where: { id: listing.pending.id } })).toBe(0);
    const events = await api.db.propertyImageReviewEvent.findMany({ where: { imageId: listing.pending.id } });
    expect(events).toEqual([
      expect.objectContaining({ kind: 'REJECTED', actorUserId: api.actors.assigned.id, reason: 'Furniture blocks the window' }),
    ]);
    const outbox = await api.db.storageDeletionOutbox.findMany({ where: { objectKey: listing.pending.objectKey } });
    expect(outbox.map((row) => [row.reason, row.status])).toEqual([['STAGED_IMAGE_DELETED', 'PENDING']]);
    expect(api.logs.events('ai_room_staging.variant_rejected').filter((line) => line['imageId'] === listing.pending.id)).toHaveLength(1);
    const log = api.logs.events('ai_room_staging.variant_rejected').find((line) => line['imageId'] === listing.pending.id)!;
    expect(JSON.stringify(log)).not.toContain('Furniture');

    const resubmitted = await submit({ originalImageId: listing.original.id, roomType: 'LIVING_ROOM', style: 'MODERN' }, api.actors.cookies.owner);
    expect(resubmitted.status).toBe(200);
    const [item] = submittedItems(resubmitted);
    expect(item).toMatchObject({ disposition: 'ENQUEUED', canonicalStyle: 'MODERN', originalImageId: listing.original.id });
    expect(await api.stagingQueue.getJobState(item!.aiJobId)).toBe('waiting');
    await api.stagingQueue.remove(item!.aiJobId);

    const again = await reject(listing.pending.id, api.actors.cookies.owner);
    expect(again.status).toBe(404);
  });

  it('takes down an approved variant the same way and rebuilds search', async () => {
    const listing = await seedListing(api.db, api.storage, api.actors);
    const response = await reject(listing.approved.id, api.actors.cookies.owner);
    expect(response.status).toBe(200);
    expect(response.body.result?.data).toMatchObject({ previousReviewStatus: 'APPROVED' });
    // The APPROVED event of its approval and the REJECTED one both survive the row.
    const kinds = (await api.db.propertyImageReviewEvent.findMany({ where: { imageId: listing.approved.id }, orderBy: { createdAt: 'asc' } })).map((e) => e.kind);
    expect(kinds).toEqual(['APPROVED', 'REJECTED']);
    expect(await rebuildsQueued(listing.propertyId)).toBeGreaterThan(0);
  });

  it.each(['unrelated', 'admin'] as const)('answers NOT_FOUND to the %s user and keeps the row', async (who) => {
    const listing = await seedListing(api.db, api.storage, api.actors);
    const response = await reject(listing.pending.id, api.actors.cookies[who]);
    expect(response.status).toBe(404);
    expect(await api.db.propertyImage.count({ where: { id: listing.pending.id } })).toBe(1);
    expect(await api.db.propertyImageReviewEvent.count({ where: { imageId: listing.pending.id } })).toBe(0);
  });

  it('refuses a reason over 500 characters', async () => {
    const listing = await seedListing(api.db, api.storage, api.actors);
    const response = await reject(listing.pending.id, api.actors.cookies.owner, 'x'.repeat(501));
    expect(response.status).toBe(400);
    expect(await api.db.propertyImage.count({ where: { id: listing.pending.id } })).toBe(1);
  });
});

describe('staging procedures', () => {
  it('submits, reads, lists and cancels a job through the api', async () => {
    const listing = await seedListing(api.db, api.storage, api.actors);
    const submitted = await submit({ originalImageId: listing.original.id, roomType: 'TV_ROOM', style: 'SCANDINAVIAN' }, api.actors.cookies.owner);
    expect(submitted.status).toBe(200);
    const [item] = submittedItems(submitted);
    expect(item?.disposition).toBe('ENQUEUED');
    const duplicate = await submit({ originalImageId: listing.original.id, roomType: 'TV_ROOM', style: 'SCANDINAVIAN' }, api.actors.cookies.assigned);
    expect(submittedItems(duplicate)[0]).toMatchObject({
      disposition: 'EXISTING',
      aiJobId: item!.aiJobId,
    });

    const job = await trpc(api.url, 'query', 'ai.getJob', { aiJobId: item!.aiJobId }, api.actors.cookies.assigned);
    expect(job.body.result?.data).toMatchObject({ aiJobId: item!.aiJobId, status: 'PENDING', roomType: 'TV_ROOM', canonicalStyle: 'SCANDINAVIAN' });
    const list = await trpc(api.url, 'query', 'ai.listJobs', { propertyId: listing.propertyId }, api.actors.cookies.owner);
    expect((list.body.result?.data as { items: { aiJobId: string }[] }).items.map((j) => j.aiJobId)).toEqual([item!.aiJobId]);

    const canceled = await trpc(api.url, 'mutation', 'ai.cancelStaging', { aiJobId: item!.aiJobId }, api.actors.cookies.owner);
    expect(canceled.body.result?.data).toMatchObject({ status: 'CANCELED' });
    expect(await api.stagingQueue.getJobState(item!.aiJobId)).toBe('unknown');
    expect(api.logs.events('ai_room_staging.cancel_requested').some((line) => line['jobId'] === item!.aiJobId)).toBe(true);
  });

  it('answers STAGING_UNAVAILABLE when the kill switch is off, writing no job', async () => {
    const off = await startApi({ env: { AI_ROOM_STAGING_ENABLED: 'false' } });
    try {
      const listing = await seedListing(off.db, off.storage, api.actors);
      const response = await submit({ originalImageId: listing.original.id, roomType: 'BEDROOM', style: 'MODERN' }, api.actors.cookies.owner, off.url);
      expect(response.status).toBe(503);
      expect(response.body.error?.data.appCode).toBe('STAGING_UNAVAILABLE');
      expect(await off.db.aiRoomStagingJob.count({ where: { originalImageId: listing.original.id } })).toBe(0);
    } finally {
      await off.close();
    }
  });
});
