import {
  createInventoryItem,
  createProperty,
  createPropertyUnit,
  createUser,
} from '@staging/db/testing/factories';
import { requestPropertyDescription } from '@staging/services/description/request-description';
import { memoryLogger } from '@staging/services/staging/testing/staging-test-kit';
import { startTcpProxy } from '../../test/support/tcp-proxy';
import { useAiQueueTestStack, waitUntil } from '../../test/support/test-stack';
import { startAiQueueConsumer } from './ai-queue-consumer';

const ctx = useAiQueueTestStack();

async function seedProperty() {
  const owner = await createUser(ctx.stack.db);
  const property = await createProperty(ctx.stack.db, {
    ownerAgentId: owner.id,
    title: 'Garden House',
    city: 'Ghent',
  });
  const unit = await createPropertyUnit(ctx.stack.db, { propertyId: property.id, name: 'Duplex' });
  await createInventoryItem(ctx.stack.db, { propertyUnitId: unit.id, status: 'AVAILABLE' });
  return { owner, property };
}

describe('ai queue consumer: descriptions', () => {
  it('runs a DESCRIPTION job from ai<QUEUE_SUFFIX> to SUCCESS and writes the description', async () => {
    const worker = await ctx.stack.startWorker({ env: { AI_DESCRIPTION_CONCURRENCY: '3' } });
    expect(
      worker.log.lines().find((l) => l['msg'] === 'ai queue consumer started (descriptions, legacy bridge)'),
    ).toMatchObject({
      queue: `ai${ctx.stack.suffix}`,
      concurrency: 3,
    });
    const { owner, property } = await seedProperty();
    const { aiJobId } = await requestPropertyDescription(
      {
        db: ctx.stack.db,
        aiQueue: ctx.aiQueue,
        logger: memoryLogger().logger,
        clock: { now: () => new Date() },
      },
      { propertyId: property.id, requestedByUserId: owner.id },
    );
    await waitUntil(
      async () => (await ctx.stack.db.aiJob.findUnique({ where: { id: aiJobId } }))?.status === 'SUCCESS',
      { what: 'description SUCCESS' },
    );
    const stored = await ctx.stack.db.property.findUniqueOrThrow({ where: { id: property.id } });
    expect(stored.description).toBe(
      'Garden House in Ghent. The home offers 2 bedrooms and 1 bathroom. It is offered in 1 unit type (Duplex) with 1 unit in total, 1 currently available.',
    );
    expect(worker.log.events('ai_description.completed')).toMatchObject([
      { jobId: aiJobId, propertyId: property.id },
    ]);
    await worker.stop();
  });

  it('re-adds a description message Redis lost (ai_jobs is the outbox)', async () => {
    const { property } = await seedProperty();
    // Written while no worker runs, then the queue message is lost.
    const { aiJobId } = await requestPropertyDescription(
      {
        db: ctx.stack.db,
        aiQueue: ctx.aiQueue,
        logger: memoryLogger().logger,
        clock: { now: () => new Date() },
      },
      { propertyId: property.id, requestedByUserId: null },
    );
    await ctx.aiQueue.remove(aiJobId);
    const worker = await ctx.stack.startWorker();
    await waitUntil(
      async () => (await ctx.stack.db.aiJob.findUnique({ where: { id: aiJobId } }))?.status === 'SUCCESS',
      { what: 'repaired description' },
    );
    await worker.stop();
  });

  // Every close step is bounded by the consumer itself; the Jest timeout only guards against a hang.
  it('still stops when Redis became unreachable', async () => {
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: 6379 });
    try {
      const log = memoryLogger();
      const consumer = startAiQueueConsumer(ctx.stack.config({ VALKEY_URL: proxy.url }), {
        logger: log.logger,
        captureAlert: () => undefined,
        db: ctx.stack.db,
      });
      await consumer.worker.waitUntilReady();
      await proxy.cut();
      await expect(consumer.stop()).resolves.toBeUndefined();
    } finally {
      await proxy.close();
    }
  }, 300_000);
});
