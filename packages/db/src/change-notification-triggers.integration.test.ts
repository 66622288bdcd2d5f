// The triggers of 0016: which row changes announce themselves on the change notifications channel, with
// what payload, and which stay silent (heartbeats, bookkeeping columns, description jobs). The
// database is shared with other test files, so only this test's property counts.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import pg from 'pg';
import { CHANGE_NOTIFICATIONS_CHANNEL, ZChangeNotification } from './change-notifications';
import type { ChangeNotification } from './change-notifications';
import { createDb } from './client';
import { createOriginalImage, createProperty, createProviderAttempt, createStagedImage, createStagingJob, createUser } from './testing/factories';

const db = createDb(process.env.DATABASE_URL ?? '', { maxConnections: 2 });
const listener = new pg.Client({ connectionString: process.env.DATABASE_URL });
const received: ChangeNotification[] = [];

beforeAll(async () => {
  await listener.connect();
  listener.on('notification', (message) => {
    if (message.channel === CHANGE_NOTIFICATIONS_CHANNEL && message.payload !== undefined) {
      received.push(ZChangeNotification.parse(JSON.parse(message.payload)));
    }
  });
  await listener.query(`LISTEN ${CHANGE_NOTIFICATIONS_CHANNEL}`);
});

afterAll(async () => {
  await listener.end();
  await db.$disconnect();
});

/**
 * Runs `change`, then a marker change of its own property; once the marker arrives (notifications
 * of one listener arrive in commit order) returns what `change` announced for `propertyId`.
 */
async function announcedBy(propertyId: string, markerPropertyId: string, change: () => Promise<unknown>): Promise<ChangeNotification[]> {
  received.length = 0;
  await change();
  await db.$executeRaw`SELECT pg_notify(${CHANGE_NOTIFICATIONS_CHANNEL}, ${JSON.stringify({ kind: 'image', propertyId: markerPropertyId, jobId: null, status: null })})`;
  while (!received.some((event) => event.propertyId === markerPropertyId)) {
    await new Promise<void>((resolve) => listener.once('notification', () => resolve()));
  }
  return received.filter((event) => event.propertyId === propertyId);
}

it('announces each state an agent waits for, and nothing for bookkeeping', async () => {
  const agent = await createUser(db);
  const property = await createProperty(db, { ownerAgentId: agent.id });
  const marker = await createProperty(db, { ownerAgentId: agent.id });
  const announced = (change: () => Promise<unknown>) => announcedBy(property.id, marker.id, change);

  let originalId = '';
  expect(
    await announced(async () => {
      originalId = (await createOriginalImage(db, { propertyId: property.id })).id;
    }),
  ).toEqual([{ kind: 'image', propertyId: property.id, jobId: null, status: null }]);
  const original = { id: originalId, propertyId: property.id };

  let jobId = '';
  expect(
    await announced(async () => {
      jobId = (await createStagingJob(db, { original })).id;
    }),
  ).toEqual([{ kind: 'job', propertyId: property.id, jobId, status: 'PENDING' }]);

  expect(await announced(() => db.aiJob.update({ where: { id: jobId }, data: { heartbeatAt: new Date() } }))).toEqual([]);
  expect(await announced(() => db.aiJob.update({ where: { id: jobId }, data: { status: 'PENDING' } }))).toEqual([]);
  expect(await announced(() => db.aiJob.update({ where: { id: jobId }, data: { phase: 'PROVIDER_DISABLED' } }))).toEqual([
    { kind: 'job', propertyId: property.id, jobId, status: 'PENDING' },
  ]);
  expect(await announced(() => db.aiJob.update({ where: { id: jobId }, data: { status: 'PROCESSING', startedAt: new Date() } }))).toEqual([
    { kind: 'job', propertyId: property.id, jobId, status: 'PROCESSING' },
  ]);

  let attemptId = '';
  expect(
    await announced(async () => {
      attemptId = (await createProviderAttempt(db, { aiJobId: jobId })).id;
    }),
  ).toEqual([{ kind: 'job', propertyId: property.id, jobId, status: 'PROCESSING' }]);
  expect(await announced(() => db.aiProviderAttempt.update({ where: { id: attemptId }, data: { providerStatus: 'processing' } }))).toEqual([]);
  expect(await announced(() => db.aiProviderAttempt.update({ where: { id: attemptId }, data: { status: 'ACTIVE', costMicrousd: 42_000 } }))).toEqual([
    { kind: 'job', propertyId: property.id, jobId, status: 'PROCESSING' },
  ]);

  let imageId = '';
  expect(
    await announced(async () => {
      // As the finalize transaction does: the result row and the job's SUCCESS commit together.
      await db.$transaction(async (tx) => {
        imageId = (await createStagedImage(tx as unknown as typeof db, { original, aiJobId: jobId })).id;
        await tx.aiJob.update({ where: { id: jobId }, data: { status: 'SUCCESS', completedAt: new Date() } });
      });
    }),
  ).toEqual([
    { kind: 'image', propertyId: property.id, jobId, status: 'PENDING_REVIEW' },
    { kind: 'job', propertyId: property.id, jobId, status: 'SUCCESS' },
  ]);

  expect(await announced(() => db.propertyImage.update({ where: { id: imageId }, data: { displayOrder: 3 } }))).toEqual([]);
  expect(
    await announced(() => db.propertyImage.update({ where: { id: imageId }, data: { reviewStatus: 'APPROVED', reviewedAt: new Date() } })),
  ).toEqual([{ kind: 'image', propertyId: property.id, jobId, status: 'APPROVED' }]);
  expect(await announced(() => db.propertyImage.delete({ where: { id: imageId } }))).toEqual([
    { kind: 'image', propertyId: property.id, jobId, status: null },
  ]);
});

it('stays silent about description jobs, which share ai_jobs', async () => {
  const agent = await createUser(db);
  const property = await createProperty(db, { ownerAgentId: agent.id });
  const marker = await createProperty(db, { ownerAgentId: agent.id });
  expect(
    await announcedBy(property.id, marker.id, async () => {
      const job = await db.aiJob.create({ data: { type: 'DESCRIPTION', propertyId: property.id } });
      await db.aiJob.update({ where: { id: job.id }, data: { status: 'SUCCESS' } });
    }),
  ).toEqual([]);
});
