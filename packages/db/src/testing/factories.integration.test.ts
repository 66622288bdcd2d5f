import { afterAll, describe, expect, it } from '@jest/globals';
import { createDb } from '../client';
import { verifyPassword } from '../passwords';
import {
  createInventoryItem,
  createOriginalImage,
  createProperty,
  createPropertyUnit,
  createProviderAttempt,
  createStagedImage,
  createStagingJob,
  createUser,
} from './factories';

const db = createDb(process.env.DATABASE_URL ?? '', { maxConnections: 2 });

afterAll(async () => {
  await db.$disconnect();
});

describe('factories', () => {
  it('creates users with unique emails and a verifiable password hash', async () => {
    const agent = await createUser(db, { role: 'AGENT' });
    const admin = await createUser(db, { role: 'ADMIN', email: `admin-${agent.id}@example.test` });
    expect(agent.email).not.toBe(admin.email);
    expect(admin.role).toBe('ADMIN');
    expect(agent.passwordHash).toMatch(/^scrypt\$/);
    expect(await verifyPassword(agent.password, agent.passwordHash)).toBe(true);
  });

  it('creates a property with its assigned agents, a unit and an inventory item', async () => {
    const owner = await createUser(db, { role: 'AGENT' });
    const helper = await createUser(db, { role: 'AGENT' });
    const property = await createProperty(db, { ownerAgentId: owner.id, assignedAgentIds: [helper.id] });
    const unit = await createPropertyUnit(db, { propertyId: property.id });
    const item = await createInventoryItem(db, { propertyUnitId: unit.id, status: 'RESERVED' });

    const agents = await db.propertyAgent.findMany({ where: { propertyId: property.id } });
    expect(agents.map((a) => a.userId)).toEqual([helper.id]);
    expect(item).toMatchObject({ propertyUnitId: unit.id, status: 'RESERVED' });
  });

  it('creates originals and staged variants; an approved variant gets one APPROVED event', async () => {
    const owner = await createUser(db, { role: 'AGENT' });
    const property = await createProperty(db, { ownerAgentId: owner.id });
    const original = await createOriginalImage(db, { propertyId: property.id, isMain: true });
    const pending = await createStagedImage(db, { original, canonicalStyle: 'COASTAL' });
    const approved = await createStagedImage(db, {
      original,
      canonicalStyle: 'FARMHOUSE',
      reviewStatus: 'APPROVED',
      reviewedByUserId: owner.id,
    });

    expect(original).toMatchObject({ isStyled: false, isMain: true, reviewStatus: null });
    expect(pending).toMatchObject({ isStyled: true, isMain: false, styledFromId: original.id, reviewStatus: 'PENDING_REVIEW' });
    expect(approved).toMatchObject({ reviewStatus: 'APPROVED', reviewedByUserId: owner.id });
    expect(new Set([original.objectKey, pending.objectKey, approved.objectKey]).size).toBe(3);

    const events = await db.propertyImageReviewEvent.findMany({ where: { imageId: { in: [pending.id, approved.id] } } });
    expect(events).toEqual([expect.objectContaining({ imageId: approved.id, kind: 'APPROVED', actorUserId: owner.id })]);
  });

  it('creates a staging job with its attempts numbered in order, and a later attempt on its own', async () => {
    const owner = await createUser(db, { role: 'AGENT' });
    const property = await createProperty(db, { ownerAgentId: owner.id });
    const original = await createOriginalImage(db, { propertyId: property.id });
    const job = await createStagingJob(db, {
      original,
      job: { status: 'PROCESSING' },
      attempts: [{ status: 'FAILED', providerPredictionId: `pred-${original.id}`, costMicrousd: 40_000 }],
    });
    const second = await createProviderAttempt(db, { aiJobId: job.id, attemptNumber: 2 });

    expect(job).toMatchObject({ type: 'ROOM_STAGING', status: 'PROCESSING', propertyId: property.id });
    expect(job.attempts).toEqual([expect.objectContaining({ attemptNumber: 1, status: 'FAILED', costMicrousd: 40_000 })]);
    expect(second).toMatchObject({ aiJobId: job.id, attemptNumber: 2, status: 'RESERVED', providerPredictionId: null });
    expect(await db.aiRoomStagingJob.findUniqueOrThrow({ where: { aiJobId: job.id } })).toMatchObject({
      originalImageId: original.id,
      canonicalStyle: 'MODERN',
    });
  });
});
