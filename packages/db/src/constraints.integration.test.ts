// The rules 0010 makes the database enforce: partial unique indexes, check constraints and the
// deletion/cancellation triggers. Runs on the shared Jest database with fresh rows per test.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createDb } from './client';
import type { PropertyImage } from './client';
import { createOriginalImage, createProperty, createStagedImage, createUser } from './testing/factories';

const db = createDb(process.env.DATABASE_URL ?? '', { maxConnections: 2 });
const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
let ownerId: string;

beforeAll(async () => {
  await client.connect();
  ownerId = (await createUser(db, { role: 'AGENT' })).id;
});

afterAll(async () => {
  await client.end();
  await db.$disconnect();
});

async function newOriginal(options: { isMain?: boolean } = {}): Promise<PropertyImage> {
  const property = await createProperty(db, { ownerAgentId: ownerId });
  return createOriginalImage(db, { propertyId: property.id, isMain: options.isMain ?? true });
}

async function insertJob(options: { status: string; dedupeKey?: string; type?: string; cancelRequestedAt?: string }): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO ai_jobs (type, status, "dedupeKey", "cancelRequestedAt") VALUES ($1, $2, $3, $4) RETURNING id`,
    [options.type ?? 'ROOM_STAGING', options.status, options.dedupeKey ?? randomUUID(), options.cancelRequestedAt ?? null],
  );
  return rows[0]?.id ?? '';
}

async function insertStagingJob(status: string, original: PropertyImage, options: { cancelRequestedAt?: string } = {}): Promise<string> {
  const aiJobId = await insertJob({ status, cancelRequestedAt: options.cancelRequestedAt });
  await client.query(
    `INSERT INTO ai_room_staging_jobs ("aiJobId", "originalImageId", "propertyId", "canonicalRoomType", "canonicalStyle",
       "submittedStyle", "providerModel", "promptVersion", prompt, quality, "aspectRatio", "outputFormat", "outputCompression")
     VALUES ($1, $2, $3, 'LIVING_ROOM', 'MODERN', 'MODERN', 'openai/gpt-image-2', 'v1', 'Stage this room.', 'medium', '1:1', 'jpeg', 92)`,
    [aiJobId, original.id, original.propertyId],
  );
  return aiJobId;
}

/** Runs `sql` and returns the Postgres error it raises (fails the test if it succeeds). */
async function violation(sql: string, params: unknown[] = []): Promise<pg.DatabaseError> {
  try {
    await client.query(sql, params);
  } catch (error) {
    return error as pg.DatabaseError;
  }
  throw new Error(`Expected a constraint violation from: ${sql}`);
}

const insertStagedSql = `
  INSERT INTO property_images ("propertyId", "objectKey", "contentType", width, height, bytes, "isStyled", "isMain",
    "styledFromId", style, "canonicalStyle", "reviewStatus", "aiJobId")
  VALUES ($1, gen_random_uuid()::text, 'image/jpeg', 1, 1, 1, true, $2, $3, $4, $5, $6, $7)`;

describe('ai_jobs_active_staging_dedupe_uidx', () => {
  const nonterminal = ['PENDING', 'PROCESSING', 'RETRYING', 'CANCEL_REQUESTED'];

  it.each(nonterminal)('refuses a second nonterminal staging job for one key while one is %s', async (status) => {
    const dedupeKey = randomUUID();
    await insertJob({ status, dedupeKey });
    const error = await violation(`INSERT INTO ai_jobs (type, status, "dedupeKey") VALUES ('ROOM_STAGING', 'PENDING', $1)`, [dedupeKey]);
    expect(error.code).toBe('23505');
    expect(error.constraint).toBe('ai_jobs_active_staging_dedupe_uidx');
  });

  it.each(['SUCCESS', 'CANCELED', 'FAILED'])('allows a new job once the previous one is %s', async (status) => {
    const dedupeKey = randomUUID();
    await insertJob({ status, dedupeKey });
    await insertJob({ status: 'PENDING', dedupeKey });
    await insertJob({ status, dedupeKey });
  });

  it('does not restrict description jobs', async () => {
    const dedupeKey = randomUUID();
    await insertJob({ type: 'DESCRIPTION', status: 'PENDING', dedupeKey });
    await insertJob({ type: 'DESCRIPTION', status: 'PENDING', dedupeKey });
    await insertJob({ type: 'ROOM_STAGING', status: 'PENDING', dedupeKey });
  });
});

describe('ai_provider_attempts', () => {
  const insertAttempt = (aiJobId: string, attemptNumber: number) =>
    client.query(`INSERT INTO ai_provider_attempts ("aiJobId", "attemptNumber") VALUES ($1, $2)`, [aiJobId, attemptNumber]);

  it('allows attempts 1 and 2 and refuses 3 (and 0) by ai_provider_attempts_attemptNumber_check', async () => {
    const aiJobId = await insertJob({ status: 'PROCESSING' });
    await insertAttempt(aiJobId, 1);
    await insertAttempt(aiJobId, 2);
    for (const attemptNumber of [3, 0]) {
      const error = await violation(`INSERT INTO ai_provider_attempts ("aiJobId", "attemptNumber") VALUES ($1, $2)`, [aiJobId, attemptNumber]);
      expect(error.constraint).toBe('ai_provider_attempts_attemptNumber_check');
      expect(error.message).toContain('ai_provider_attempts_attemptNumber_check');
    }
  });

  it('refuses buying the same attempt number twice', async () => {
    const aiJobId = await insertJob({ status: 'PROCESSING' });
    await insertAttempt(aiJobId, 1);
    const error = await violation(`INSERT INTO ai_provider_attempts ("aiJobId", "attemptNumber") VALUES ($1, 1)`, [aiJobId]);
    expect(error.constraint).toBe('ai_provider_attempts_job_attempt_uidx');
  });
});

describe('property_images checks and unique indexes', () => {
  it('refuses a staged row without a review status, and an original with one', async () => {
    const original = await newOriginal();
    const staged = await violation(insertStagedSql, [original.propertyId, false, original.id, 'MODERN', 'MODERN', null, null]);
    expect(staged.constraint).toBe('property_images_review_status_check');
    const unstaged = await violation(
      `UPDATE property_images SET "reviewStatus" = 'APPROVED' WHERE id = $1`, [original.id]);
    expect(unstaged.constraint).toBe('property_images_review_status_check');
  });

  it('refuses a staged cover, on insert and on UPDATE ... SET "isMain" = true', async () => {
    const original = await newOriginal({ isMain: false });
    const inserted = await violation(insertStagedSql, [original.propertyId, true, original.id, 'MODERN', 'MODERN', 'APPROVED', null]);
    expect(inserted.constraint).toBe('property_images_staged_cannot_be_main_check');

    const staged = await createStagedImage(db, { original, reviewStatus: 'APPROVED' });
    const updated = await violation(`UPDATE property_images SET "isMain" = true WHERE id = $1`, [staged.id]);
    expect(updated.message).toContain('property_images_staged_cannot_be_main_check');
  });

  it('allows one cover per property', async () => {
    const cover = await newOriginal({ isMain: true });
    const error = await violation(
      `INSERT INTO property_images ("propertyId", "objectKey", "contentType", width, height, bytes, "isMain")
       VALUES ($1, gen_random_uuid()::text, 'image/jpeg', 1, 1, 1, true)`, [cover.propertyId]);
    expect(error.constraint).toBe('property_images_one_main_per_property_uidx');
  });

  it('allows one live variant per original and canonical style, again after the first is removed', async () => {
    const original = await newOriginal();
    const first = await createStagedImage(db, { original, canonicalStyle: 'COASTAL' });
    await createStagedImage(db, { original, canonicalStyle: 'MODERN' });
    const error = await violation(insertStagedSql, [original.propertyId, false, original.id, 'coastal', 'COASTAL', 'PENDING_REVIEW', null]);
    expect(error.constraint).toBe('property_images_live_staged_variant_uidx');

    await client.query('DELETE FROM property_images WHERE id = $1', [first.id]);
    await createStagedImage(db, { original, canonicalStyle: 'COASTAL' });
  });

  it('allows one display-only variant per original and legacy style', async () => {
    const original = await newOriginal();
    await client.query(insertStagedSql, [original.propertyId, false, original.id, 'no-furniture', null, 'APPROVED', null]);
    await client.query(insertStagedSql, [original.propertyId, false, original.id, 'Art Deco', null, 'APPROVED', null]);
    const error = await violation(insertStagedSql, [original.propertyId, false, original.id, 'no-furniture', null, 'APPROVED', null]);
    expect(error.constraint).toBe('property_images_live_legacy_staged_variant_uidx');
  });

  it('allows one result image per job (property_images_aiJobId_uidx)', async () => {
    const original = await newOriginal();
    const aiJobId = await insertJob({ status: 'SUCCESS' });
    await createStagedImage(db, { original, canonicalStyle: 'MODERN', aiJobId });
    const error = await violation(insertStagedSql, [original.propertyId, false, original.id, 'FARMHOUSE', 'FARMHOUSE', 'PENDING_REVIEW', aiJobId]);
    expect(error.constraint).toBe('property_images_aiJobId_uidx');
  });

  it('refuses a staged row whose original does not exist', async () => {
    const original = await newOriginal();
    const error = await violation(insertStagedSql, [original.propertyId, false, randomUUID(), 'MODERN', 'MODERN', 'PENDING_REVIEW', null]);
    expect(error.constraint).toBe('property_images_styledFromId_fkey');
  });
});

describe('property_image_review_events', () => {
  it('keeps one APPROVED event per image, any number of REJECTED ones, and outlives the image', async () => {
    const original = await newOriginal();
    const staged = await createStagedImage(db, { original, reviewStatus: 'APPROVED' });
    const error = await violation(
      `INSERT INTO property_image_review_events ("imageId", kind) VALUES ($1, 'APPROVED')`, [staged.id]);
    expect(error.constraint).toBe('property_image_review_events_one_approved_uidx');

    await client.query(`INSERT INTO property_image_review_events ("imageId", kind, reason) VALUES ($1, 'REJECTED', 'a'), ($1, 'REJECTED', 'b')`, [staged.id]);
    await client.query('DELETE FROM property_images WHERE id = $1', [staged.id]);
    const { rows } = await client.query('SELECT kind FROM property_image_review_events WHERE "imageId" = $1 ORDER BY kind', [staged.id]);
    expect(rows.map((row) => row.kind)).toEqual(['APPROVED', 'REJECTED', 'REJECTED']);
  });
});

describe('deletion triggers', () => {
  const outboxFor = async (objectKeys: string[]) =>
    (await client.query<{ objectKey: string; reason: string; status: string }>(
      `SELECT "objectKey", reason, status FROM storage_deletion_outbox WHERE "objectKey" = ANY($1) ORDER BY reason::text, "objectKey"`,
      [objectKeys],
    )).rows;

  const jobState = async (id: string) =>
    (await client.query<{ status: string; cancelRequestedAt: Date | null; canceledAt: Date | null }>(
      'SELECT status, "cancelRequestedAt", "canceledAt" FROM ai_jobs WHERE id = $1', [id],
    )).rows[0];

  it('schedules a deleted staged image with STAGED_IMAGE_DELETED', async () => {
    const original = await newOriginal();
    const staged = await createStagedImage(db, { original });
    await client.query('DELETE FROM property_images WHERE id = $1', [staged.id]);
    expect(await outboxFor([staged.objectKey, original.objectKey])).toEqual([
      { objectKey: staged.objectKey, reason: 'STAGED_IMAGE_DELETED', status: 'PENDING' },
    ]);
  });

  it('deleting an original cascades its variants, schedules every object and stops its jobs', async () => {
    const original = await newOriginal();
    const other = await createOriginalImage(db, { propertyId: original.propertyId });
    const variants = [
      await createStagedImage(db, { original, canonicalStyle: 'MODERN', reviewStatus: 'APPROVED' }),
      await createStagedImage(db, { original, canonicalStyle: 'COASTAL' }),
    ];
    const earlier = '2026-01-01T00:00:00.000Z';
    const jobs = {
      pending: await insertStagingJob('PENDING', original),
      processing: await insertStagingJob('PROCESSING', original),
      retrying: await insertStagingJob('RETRYING', original),
      cancelRequested: await insertStagingJob('CANCEL_REQUESTED', original, { cancelRequestedAt: earlier }),
      success: await insertStagingJob('SUCCESS', original),
      otherOriginal: await insertStagingJob('PENDING', other),
    };

    await client.query('BEGIN');
    const now = (await client.query<{ now: Date }>('SELECT now()::timestamptz(3) AS now')).rows[0]?.now;
    await client.query('DELETE FROM property_images WHERE id = $1', [original.id]);
    await client.query('COMMIT');

    const remaining = await client.query('SELECT id FROM property_images WHERE id = ANY($1)', [[original.id, ...variants.map((v) => v.id)]]);
    expect(remaining.rows).toEqual([]);
    expect(await outboxFor([original.objectKey, ...variants.map((v) => v.objectKey)])).toEqual([
      { objectKey: original.objectKey, reason: 'ORIGINAL_IMAGE_DELETED', status: 'PENDING' },
      ...variants.map((v) => ({ objectKey: v.objectKey, reason: 'STAGED_IMAGE_DELETED', status: 'PENDING' }))
        .sort((a, b) => a.objectKey.localeCompare(b.objectKey)),
    ]);

    expect(await jobState(jobs.pending)).toEqual({ status: 'CANCELED', cancelRequestedAt: now, canceledAt: now });
    expect(await jobState(jobs.processing)).toEqual({ status: 'CANCEL_REQUESTED', cancelRequestedAt: now, canceledAt: null });
    expect(await jobState(jobs.retrying)).toEqual({ status: 'CANCEL_REQUESTED', cancelRequestedAt: now, canceledAt: null });
    expect(await jobState(jobs.cancelRequested)).toEqual({ status: 'CANCEL_REQUESTED', cancelRequestedAt: new Date(earlier), canceledAt: null });
    expect(await jobState(jobs.success)).toEqual({ status: 'SUCCESS', cancelRequestedAt: null, canceledAt: null });
    expect(await jobState(jobs.otherOriginal)).toEqual({ status: 'PENDING', cancelRequestedAt: null, canceledAt: null });

    const staging = await client.query('SELECT "originalImageId" FROM ai_room_staging_jobs WHERE "aiJobId" = $1', [jobs.pending]);
    expect(staging.rows).toEqual([{ originalImageId: null }]);
  });

  it('deleting a property cancels its jobs and schedules every image object', async () => {
    const original = await newOriginal();
    const staged = await createStagedImage(db, { original });
    const job = await insertStagingJob('PENDING', original);
    await client.query('DELETE FROM properties WHERE id = $1', [original.propertyId]);

    expect((await outboxFor([original.objectKey, staged.objectKey])).map((row) => row.reason)).toEqual([
      'ORIGINAL_IMAGE_DELETED', 'STAGED_IMAGE_DELETED',
    ]);
    expect((await jobState(job))?.status).toBe('CANCELED');
  });
});
