import { randomUUID } from 'node:crypto';
import type { Db } from '@staging/db/client';
import { AppError } from '@staging/domain/errors';
import type { Logger } from '@staging/platform/logger';
import type { Clock } from '../staging/staging-deps';
import { withQueueTimeout } from '../staging/staging-queue';
import { enqueueDescriptionJob } from './ai-queue';
import type { AiQueue } from './ai-queue';

export interface DescriptionProducerDeps {
  db: Db;
  aiQueue: AiQueue;
  logger: Logger;
  clock: Clock;
}

/**
 * Records a DESCRIPTION job (ai_jobs is the outbox, payload `{ propertyId }`) and adds its
 * message to `ai<QUEUE_SUFFIX>`. If the add fails the row stays PENDING and the worker's
 * description repair pass adds the message later. Authorization is the caller's (a procedure
 * that already checked the actor may manage the property).
 *
 * @throws AppError NOT_FOUND when the property does not exist.
 */
export async function requestPropertyDescription(
  deps: DescriptionProducerDeps,
  input: { propertyId: string; requestedByUserId: string | null },
): Promise<{ aiJobId: string }> {
  const property = await deps.db.property.findUnique({
    where: { id: input.propertyId },
    select: { id: true },
  });
  if (property === null) throw new AppError('NOT_FOUND', 'Property not found');
  const now = deps.clock.now();
  const aiJobId = randomUUID();
  await deps.db.aiJob.create({
    data: {
      id: aiJobId,
      type: 'DESCRIPTION',
      status: 'PENDING',
      phase: 'QUEUED',
      propertyId: input.propertyId,
      requestedByUserId: input.requestedByUserId,
      payload: { propertyId: input.propertyId },
      createdAt: now,
      updatedAt: now,
    },
    select: { id: true },
  });
  try {
    await withQueueTimeout(enqueueDescriptionJob(deps.aiQueue, aiJobId), 'enqueue description');
  } catch (error) {
    deps.logger.warn(
      { event: 'ai_description.enqueue_failed', jobId: aiJobId, err: error },
      'ai_description.enqueue_failed',
    );
  }
  deps.logger.info(
    { event: 'ai_description.requested', jobId: aiJobId, propertyId: input.propertyId },
    'ai_description.requested',
  );
  return { aiJobId };
}
