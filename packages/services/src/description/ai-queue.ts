import type { ConnectionOptions, Queue } from 'bullmq';
import { queueNames } from '@staging/platform/queues';
import { buildMessage, defineQueueContract } from '../queue-contract';
import { LEDGER_MESSAGE_RETENTION, openQueue, retryWithBackoff, ZLedgerJobMessage } from '../queue-messages';

/**
 * `ai<QUEUE_SUFFIX>` as producers and the worker type it. It carries two message kinds, told apart
 * by the BullMQ job name, so data differs per job name:
 * - `description` (this module): generate a listing description;
 * - `stage-room` (services/bridge): a v1 staging request the worker materializes into a v2 job.
 */
export type AiQueue = Queue<Record<string, unknown>, unknown, string>;

/**
 * A description message carries the ledger row's ID only: the property to describe is in
 * ai_jobs.payload, so repair can rebuild any message from Postgres.
 *
 * - `attempts`/`backoff`: a generator or database blip is retried; after the last attempt the
 *   worker records the job FAILED.
 * - retention: {@link LEDGER_MESSAGE_RETENTION} (the job's history is ai_jobs).
 */
export const DESCRIPTION_MESSAGE = defineQueueContract({
  queue: 'ai',
  jobName: 'description',
  schema: ZLedgerJobMessage,
  options: { ...retryWithBackoff(3, 1_000), ...LEDGER_MESSAGE_RETENTION },
});

/** Opens `ai<queueSuffix>` on `connection`. */
export function createAiQueue(connection: ConnectionOptions, queueSuffix: string): AiQueue {
  return openQueue<Record<string, unknown>, unknown>(queueNames(queueSuffix).ai, connection);
}

/** Adds the message of description job `aiJobId` (jobId = aiJobId, so adding twice adds once). */
export async function enqueueDescriptionJob(queue: AiQueue, aiJobId: string): Promise<void> {
  const data = buildMessage(DESCRIPTION_MESSAGE, { aiJobId, v: 1 });
  await queue.add(DESCRIPTION_MESSAGE.jobName, data, { ...DESCRIPTION_MESSAGE.options, jobId: aiJobId });
}
