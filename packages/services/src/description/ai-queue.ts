import type { ConnectionOptions, JobsOptions, Queue } from 'bullmq';
import type { z } from 'zod';
import { queueNames } from '@staging/platform/queues';
import { LEDGER_MESSAGE_RETENTION, openQueue, retryWithBackoff, ZLedgerJobMessage } from '../queue-messages';

/**
 * `ai<QUEUE_SUFFIX>` carries two message kinds, told apart by the BullMQ job name:
 * - `description` (this module): generate a listing description;
 * - `stage-room` (services/bridge): a v1 staging request the worker materializes into a v2 job.
 */
export const DESCRIPTION_JOB_NAME = 'description';

/**
 * Payload of a description message. Like staging messages it carries the ledger row's ID only:
 * the property to describe is in ai_jobs.payload, so repair can rebuild any message from Postgres.
 */
export const ZDescriptionJobPayload = ZLedgerJobMessage;

export type TDescriptionJobPayload = z.infer<typeof ZDescriptionJobPayload>;

/** The queue as producers and the worker type it; data differs per job name. */
export type AiQueue = Queue<Record<string, unknown>, unknown, string>;

/**
 * - `attempts`/`backoff`: a generator or database blip is retried; after the last attempt the
 *   worker records the job FAILED.
 * - retention: {@link LEDGER_MESSAGE_RETENTION} (the job's history is ai_jobs).
 */
export const DESCRIPTION_JOB_OPTIONS = {
  ...retryWithBackoff(3, 1_000),
  ...LEDGER_MESSAGE_RETENTION,
} as const satisfies JobsOptions;

/** Opens `ai<queueSuffix>` on `connection`. */
export function createAiQueue(connection: ConnectionOptions, queueSuffix: string): AiQueue {
  return openQueue<Record<string, unknown>, unknown>(queueNames(queueSuffix).ai, connection);
}

/** Adds the message of description job `aiJobId` (jobId = aiJobId, so adding twice adds once). */
export async function enqueueDescriptionJob(queue: AiQueue, aiJobId: string): Promise<void> {
  const data = ZDescriptionJobPayload.parse({ aiJobId, v: 1 });
  await queue.add(DESCRIPTION_JOB_NAME, data, { ...DESCRIPTION_JOB_OPTIONS, jobId: aiJobId });
}
