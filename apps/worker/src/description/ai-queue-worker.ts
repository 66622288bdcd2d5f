import { DelayedError, Worker } from 'bullmq';
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { WorkerConfig } from '@staging/config/worker';
import type { Alert } from '@staging/platform/error-tracker';
import type { Logger } from '@staging/platform/logger';
import type { PriorityGate } from '@staging/platform/priority-gate';
import { onOwnErrors } from '@staging/platform/queues';
import { LEGACY_STAGE_ROOM_MESSAGE } from '@staging/services/bridge/legacy-stage-room';
import { DESCRIPTION_MESSAGE } from '@staging/services/description/ai-queue';
import type { AiQueue } from '@staging/services/description/ai-queue';
import { refuseMessage } from '@staging/services/queue-contract';

/**
 * The BullMQ worker on `ai<QUEUE_SUFFIX>`: each message to its processor by job name, a
 * description as the process's urgent work, any other name refused.
 */
export function startAiQueueWorker(
  config: WorkerConfig,
  {
    queue,
    redis,
    logger,
    captureAlert,
    priority,
    processDescription,
    processStageRoom,
  }: {
    queue: AiQueue;
    redis: Redis;
    logger: Logger;
    captureAlert: (alert: Alert) => void;
    priority: PriorityGate | undefined;
    processDescription: (job: Job) => Promise<void>;
    processStageRoom: (job: Job, token: string | undefined) => Promise<void>;
  },
): Worker {
  const worker = new Worker(
    queue.name,
    async (job: Job, token?: string) => {
      switch (job.name) {
        case DESCRIPTION_MESSAGE.jobName:
          return priority === undefined ? processDescription(job) : priority.urgent(() => processDescription(job));
        case LEGACY_STAGE_ROOM_MESSAGE.jobName:
          return processStageRoom(job, token);
        default:
          return refuseMessage('ai', job, ['job name is none of this queue\'s messages'], { logger, captureAlert });
      }
    },
    {
      connection: redis,
      concurrency: config.descriptionConcurrency,
      removeOnComplete: { age: 24 * 3600, count: 1_000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    },
  );
  onOwnErrors(worker, (error) => logger.error({ err: error, queue: queue.name }, 'ai queue consumer error'));
  worker.on('failed', (job, error) => {
    if (error instanceof DelayedError || error.name === 'DelayedError') return;
    logger.warn({ queueJobId: job?.id, jobName: job?.name, err: error }, 'ai queue job failed');
  });
  return worker;
}
