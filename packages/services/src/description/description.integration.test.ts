import type { Redis } from 'ioredis';
import type { Db } from '@staging/db/client';
import {
  createInventoryItem,
  createProperty,
  createPropertyUnit,
  createUser,
} from '@staging/db/testing/factories';
import { AppError } from '@staging/domain/errors';
import {
  fixedClock,
  memoryLogger,
  openTestDb,
  openTestRedis,
  uniqueQueueSuffix,
} from '../staging/testing/staging-test-kit';
import { createSearchQueue, type SearchQueue } from '../search/search-queue';
import { createAiQueue, DESCRIPTION_MESSAGE } from './ai-queue';
import type { AiQueue } from './ai-queue';
import type { DescriptionGenerator } from './description-generator';
import { templateDescriptionGenerator } from './description-generator';
import { processDescriptionJob } from './process-description-job';
import { repairDescriptionQueue } from './repair-description-queue';
import { requestPropertyDescription } from './request-description';

let db: Db;
let redis: Redis;
let queue: AiQueue;
let searchQueue: SearchQueue;
const clock = fixedClock(new Date('2026-11-22T10:00:00.000Z'));

beforeAll(() => {
  db = openTestDb();
  redis = openTestRedis();
});

beforeEach(async () => {
  const suffix = uniqueQueueSuffix();
  queue = createAiQueue(redis, suffix);
  searchQueue = createSearchQueue(redis, suffix);
  await queue.waitUntilReady();
});

afterEach(async () => {
  await queue.obliterate({ force: true });
  await queue.close();
  await searchQueue.obliterate({ force: true });
  await searchQueue.close();
});

afterAll(async () => {
  await db.$disconnect();
  redis.disconnect();
});

async function seedProperty() {
  const owner = await createUser(db);
  const property = await createProperty(db, { ownerAgentId: owner.id, title: 'Harbour View', city: 'Porto' });
  await db.property.update({
    where: { id: property.id },
    data: { bedrooms: 3, bathrooms: 2, features: ['Balcony', 'Lift'] },
  });
  const unit = await createPropertyUnit(db, { propertyId: property.id, name: 'Two-bedroom' });
  await createInventoryItem(db, { propertyUnitId: unit.id, status: 'AVAILABLE' });
  await createInventoryItem(db, { propertyUnitId: unit.id, status: 'SOLD' });
  return { owner, property };
}

/** A property with a description job requested for it by no one in particular. */
async function seedRequestedJob() {
  const { property } = await seedProperty();
  const { aiJobId } = await requestPropertyDescription(producer(), { propertyId: property.id, requestedByUserId: null });
  return { property, aiJobId };
}

function producer() {
  return { db, aiQueue: queue, logger: memoryLogger().logger, clock };
}

describe('description jobs', () => {
  it('records a DESCRIPTION job with payload { propertyId } and queues it under its own ID', async () => {
    const { owner, property } = await seedProperty();
    const { aiJobId } = await requestPropertyDescription(producer(), {
      propertyId: property.id,
      requestedByUserId: owner.id,
    });

    const row = await db.aiJob.findUniqueOrThrow({ where: { id: aiJobId } });
    expect(row).toMatchObject({
      type: 'DESCRIPTION',
      status: 'PENDING',
      propertyId: property.id,
      payload: { propertyId: property.id },
    });
    const job = await queue.getJob(aiJobId);
    expect(job?.name).toBe(DESCRIPTION_MESSAGE.jobName);
    expect(job?.data).toEqual({ aiJobId, v: 1 });
  });

  it('refuses an unknown property without writing a row', async () => {
    const before = await db.aiJob.count({ where: { type: 'DESCRIPTION' } });
    await expect(
      requestPropertyDescription(producer(), { propertyId: 'no-such-property', requestedByUserId: null }),
    ).rejects.toBeInstanceOf(AppError);
    expect(await db.aiJob.count({ where: { type: 'DESCRIPTION' } })).toBe(before);
  });

  it('writes properties.description from the facts and ends SUCCESS; a redelivery changes nothing', async () => {
    const { property, aiJobId } = await seedRequestedJob();
    const log = memoryLogger();
    const deps = { db, generator: templateDescriptionGenerator, logger: log.logger, clock, searchQueue };

    const outcome = await processDescriptionJob(deps, aiJobId);
    const expected =
      'Harbour View in Porto. The home offers 3 bedrooms and 2 bathrooms. Highlights include balcony and lift. ' +
      'It is offered in 1 unit type (Two-bedroom) with 2 units in total, 1 currently available.';
    expect(outcome).toEqual({ kind: 'succeeded', description: expected });
    expect((await db.property.findUniqueOrThrow({ where: { id: property.id } })).description).toBe(expected);
    const row = await db.aiJob.findUniqueOrThrow({ where: { id: aiJobId } });
    expect(row).toMatchObject({
      status: 'SUCCESS',
      errorCode: null,
      result: { description: expected, generator: 'template' },
    });
    expect(row.completedAt).toEqual(clock.now());
    expect(log.events('ai_description.completed')).toHaveLength(1);
    // The new text is in the search document and on the public page once they are rebuilt.
    expect((await searchQueue.getJobs(['waiting'])).map((job) => job.data)).toEqual([{ propertyId: property.id, v: 1 }]);

    expect(await processDescriptionJob(deps, aiJobId)).toEqual({ kind: 'skipped', reason: 'terminal' });
  });

  it('ends FAILED with PROPERTY_NOT_FOUND when the property is gone', async () => {
    const { property, aiJobId } = await seedRequestedJob();
    await db.property.delete({ where: { id: property.id } });
    const outcome = await processDescriptionJob(
      { db, generator: templateDescriptionGenerator, logger: memoryLogger().logger, clock, searchQueue },
      aiJobId,
    );
    expect(outcome).toEqual({ kind: 'failed', errorCode: 'PROPERTY_NOT_FOUND' });
    expect(await db.aiJob.findUniqueOrThrow({ where: { id: aiJobId } })).toMatchObject({
      status: 'FAILED',
      errorCode: 'PROPERTY_NOT_FOUND',
    });
  });

  it('leaves the job PROCESSING when the generator throws, so a retry can finish it', async () => {
    const { aiJobId } = await seedRequestedJob();
    const broken: DescriptionGenerator = {
      id: 'broken',
      generate: async () => Promise.reject(new Error('model down')),
    };
    await expect(
      processDescriptionJob({ db, generator: broken, logger: memoryLogger().logger, clock, searchQueue }, aiJobId),
    ).rejects.toThrow('model down');
    expect((await db.aiJob.findUniqueOrThrow({ where: { id: aiJobId } })).status).toBe('PROCESSING');
    expect(
      await processDescriptionJob(
        { db, generator: templateDescriptionGenerator, logger: memoryLogger().logger, clock, searchQueue },
        aiJobId,
      ),
    ).toMatchObject({
      kind: 'succeeded',
    });
  });

  it('repair re-adds the message of an open job that Redis lost', async () => {
    const { aiJobId } = await seedRequestedJob();
    await queue.remove(aiJobId);
    expect(await queue.getJob(aiJobId)).toBeUndefined();
    const result = await repairDescriptionQueue({ db, aiQueue: queue, logger: memoryLogger().logger });
    expect(result.errors).toBe(0);
    expect((await queue.getJob(aiJobId))?.data).toEqual({ aiJobId, v: 1 });
  });
});
