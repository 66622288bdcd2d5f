import { QueueEvents, Worker } from 'bullmq';
import type { ConnectionOptions, Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { isWellFormedId } from '@staging/contracts/ids';
import type { Db } from '@staging/db/client';
import type { Alert } from '@staging/platform/error-tracker';
import type { Logger } from '@staging/platform/logger';
import { queueNames } from '@staging/platform/queues';
import { acceptMessage, buildMessage, defineQueueContract } from '../queue-contract';
import { KEEP_FAILED_FOR_A_WEEK, openQueue, retryWithBackoff } from '../queue-messages';
import { rebuildSearchDocument } from './build-search-document';
import type { RebuildResult } from './build-search-document';

/** Payload validated on enqueue and on consume; the document is always rebuilt from Postgres. */
export const ZSearchRebuildPayload = z.strictObject({
  propertyId: z.string().refine(isWellFormedId, 'Must be a property identifier'),
  v: z.literal(1),
});

export type TSearchRebuildPayload = z.infer<typeof ZSearchRebuildPayload>;

export type SearchQueue = Queue<TSearchRebuildPayload, RebuildResult, string>;

/**
 * Search-document rebuilds on `search-indexing<QUEUE_SUFFIX>`.
 *
 * - no jobId: each image change adds its own message. Rebuilds are idempotent and cheap, and a
 *   shared jobId would swallow a change that lands while the previous rebuild is running.
 * - attempts/backoff: a database or Redis blip retries instead of leaving the document stale.
 * - removeOnComplete/removeOnFail: bounded history for the dashboard.
 */
export const SEARCH_REBUILD_MESSAGE = defineQueueContract({
  queue: 'search',
  jobName: 'rebuild-property-document',
  schema: ZSearchRebuildPayload,
  options: { ...retryWithBackoff(8, 1_000), removeOnComplete: { count: 1000 }, removeOnFail: KEEP_FAILED_FOR_A_WEEK },
});

/** Opens the `search-indexing<queueSuffix>` queue on `connection`. */
export function createSearchQueue(connection: ConnectionOptions, queueSuffix: string): SearchQueue {
  return openQueue<TSearchRebuildPayload, RebuildResult>(queueNames(queueSuffix).search, connection);
}

/** Asks the worker to rebuild `psearch:property:<propertyId>`. */
export async function enqueueSearchRebuild(queue: SearchQueue, propertyId: string): Promise<void> {
  const data = buildMessage(SEARCH_REBUILD_MESSAGE, { propertyId, v: 1 });
  await queue.add(SEARCH_REBUILD_MESSAGE.jobName, data, SEARCH_REBUILD_MESSAGE.options);
}

export interface SearchIndexingDeps {
  db: Db;
  redis: Redis;
  queueSuffix: string;
  logger: Logger;
  captureAlert: (alert: Alert) => void;
  now?: () => Date;
}

/**
 * The processor the worker mounts on `search-indexing<QUEUE_SUFFIX>`:
 * `new Worker(queueNames(suffix).search, createSearchIndexingProcessor(deps), …)`.
 * A message that matches no declared version is refused (the job fails visibly rather than being
 * skipped).
 */
export function createSearchIndexingProcessor(deps: SearchIndexingDeps): (job: Job) => Promise<RebuildResult> {
  return async (job) => {
    const { propertyId } = acceptMessage(SEARCH_REBUILD_MESSAGE, job, deps);
    const result = await rebuildSearchDocument(deps.db, deps.redis, propertyId, {
      queueSuffix: deps.queueSuffix,
      ...(deps.now === undefined ? {} : { now: deps.now }),
    });
    deps.logger.info({ event: 'search_document_rebuilt', propertyId, result, queueJobId: job.id }, 'search document rebuilt');
    return result;
  };
}

/**
 * A BullMQ Worker consuming `search-indexing<queueSuffix>` with the processor above. `connection`
 * must allow blocking commands (`maxRetriesPerRequest: null`, the platform's `worker` role). The
 * caller attaches its own `error`/`failed` listeners and closes it on shutdown.
 */
export function createSearchIndexingWorker(
  deps: SearchIndexingDeps & { connection: ConnectionOptions; concurrency?: number },
): Worker<TSearchRebuildPayload, RebuildResult, string> {
  return new Worker<TSearchRebuildPayload, RebuildResult, string>(
    queueNames(deps.queueSuffix).search,
    createSearchIndexingProcessor(deps),
    { connection: deps.connection, concurrency: deps.concurrency ?? 4 },
  );
}

/**
 * Calls `onRebuilt` with the property of every search document rebuild that completes on
 * `search-indexing<queueSuffix>`, whichever process asked for it and whichever worker ran it.
 * Every change to what anonymous visitors see enqueues one (approval, take-down, cover, shown or
 * hidden, upload, edit, deletion), and it runs after that change committed, so a listener that
 * hears it reads the change. Rebuilds that complete while nobody listens are not replayed.
 * `connection` must allow blocking commands, like a Worker's; `queue` reads the finished job.
 */
export function watchSearchRebuilds(
  deps: { connection: ConnectionOptions; queue: SearchQueue; logger: Logger },
  onRebuilt: (propertyId: string) => Promise<void>,
): QueueEvents {
  const events = new QueueEvents(deps.queue.name, { connection: deps.connection });
  events.on('completed', ({ jobId }) => {
    void (async () => {
      const job = await deps.queue.getJob(jobId);
      // Gone already (trimmed from the completed history): its property cannot be named.
      if (job === undefined) return;
      await onRebuilt(job.data.propertyId);
    })().catch((error: unknown) =>
      deps.logger.warn({ event: 'search_rebuild.listener_failed', queueJobId: jobId, err: error }, 'search rebuild listener failed'),
    );
  });
  return events;
}
