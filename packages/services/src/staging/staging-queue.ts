import type { ConnectionOptions, Queue } from 'bullmq';
import { z } from 'zod';
import { queueNames } from '@staging/platform/queues';
import { withTimeout } from '@staging/platform/timeout';
import { buildMessage, defineQueueContract } from '../queue-contract';
import { LEDGER_MESSAGE_RETENTION, openQueue, retryWithBackoff, ZLedgerJobMessage } from '../queue-messages';

/**
 * The earlier list walk that found no prediction for a CREATING attempt; an unknown create is
 * concluded absent only when a second walk some time later agrees.
 */
export const ZAbsenceSeen = z.strictObject({ attemptId: z.string().min(1).max(100), atMs: z.number().int().nonnegative() });
export type AbsenceSeen = z.infer<typeof ZAbsenceSeen>;

/**
 * A staging message: the ledger row's ID, plus what the worker remembers between deliveries of
 * the same job. Both memories are hints a lost message may drop (repair adds a bare one): the
 * throttle count only shapes the 429 backoff, and a dropped absence sighting means one more
 * list walk before an unknown create is concluded absent.
 */
export const ZStagingJobPayload = z.strictObject({
  ...ZLedgerJobMessage.shape,
  /** Consecutive provider 429s on create seen by earlier deliveries. */
  throttleCount: z.number().int().nonnegative().optional(),
  absenceSeen: ZAbsenceSeen.optional(),
});

/** A validated staging message payload. */
export type TStagingJobPayload = z.infer<typeof ZStagingJobPayload>;

/** The staging queue as producers and the worker type it. */
export type StagingQueue = Queue<TStagingJobPayload, unknown, string>;

/**
 * Staging messages on `ai-staging<QUEUE_SUFFIX>`, jobId = aiJobId.
 *
 * - `attempts`/`backoff`: queue-level retries cover transport trouble only (database or Redis
 *   blips throwing out of the processor); paid attempts are counted in ai_provider_attempts.
 * - retention: {@link LEDGER_MESSAGE_RETENTION}; repair and wake replace a failed message of a
 *   still-open job.
 */
export const STAGING_MESSAGE = defineQueueContract({
  queue: 'staging',
  jobName: 'room-staging',
  schema: ZStagingJobPayload,
  options: { ...retryWithBackoff(5, 2_000), ...LEDGER_MESSAGE_RETENTION },
});

/** Opens the `ai-staging<queueSuffix>` queue on `connection`. */
export function createStagingQueue(connection: ConnectionOptions, queueSuffix: string): StagingQueue {
  return openQueue<TStagingJobPayload, unknown>(queueNames(queueSuffix).staging, connection);
}

/** BullMQ's lowest priority; a batch longer than this shares it from there on. */
const LOWEST_PRIORITY = 2_097_151;

/**
 * The BullMQ priority of the message of the `index`-th (0-based) job of one submission. A
 * submission's first job has none, so it waits in plain FIFO order, ahead of every prioritized
 * message; the rest follow by their place in the batch. The worker thus picks up each agent's
 * first photo before any batch's tail, and that photo joins the fair start line at once however
 * long a backlog another agent's batch left in the queue (the line, not the queue, decides who
 * buys; the queue only decides who gets to ask first).
 */
export function batchPriority(index: number): number | undefined {
  return index === 0 ? undefined : Math.min(index, LOWEST_PRIORITY);
}

/**
 * Adds the message of staging job `aiJobId` with jobId = aiJobId. Idempotent: BullMQ ignores an
 * add whose jobId exists in any state, so a duplicate submit, repair or wake adds nothing.
 */
export async function enqueueStagingJob(queue: StagingQueue, aiJobId: string, opts: { delayMs?: number; priority?: number } = {}): Promise<void> {
  await queue.add(STAGING_MESSAGE.jobName, buildMessage(STAGING_MESSAGE, { aiJobId, v: 1 }), {
    ...STAGING_MESSAGE.options,
    jobId: aiJobId,
    ...(opts.delayMs === undefined ? {} : { delay: opts.delayMs }),
    ...(opts.priority === undefined ? {} : { priority: opts.priority }),
  });
}

/** What {@link wakeStagingJob} did. */
export type WakeResult = 'promoted' | 'already-queued' | 'added' | 'replaced';

const STATE_RETRIES = 5;

/**
 * Makes the worker look at job `aiJobId` now (webhook arrived, cancel requested):
 *
 * - delayed (the worker parked it to wait for the provider) → promoted to waiting;
 * - waiting or active → nothing to do, the worker is on it or about to be;
 * - missing (Redis lost it, removed on completion) → re-added;
 * - completed or failed → replaced by a fresh message, since the caller wakes only jobs the
 *   ledger still holds open.
 *
 * Safe to call concurrently and repeatedly; states are re-read when one changes underneath.
 */
export async function wakeStagingJob(queue: StagingQueue, aiJobId: string): Promise<WakeResult> {
  for (let i = 0; i < STATE_RETRIES; i += 1) {
    const state = await queue.getJobState(aiJobId);
    switch (state) {
      case 'delayed':
        try {
          // Straight to the backend's promote (what Job#promote calls): no round trip to load the job.
          await queue.getBackend().promote(aiJobId);
          return 'promoted';
        } catch {
          // It left the delayed set between the two calls (started or promoted by someone else).
          continue;
        }
      case 'waiting':
      case 'prioritized':
      case 'waiting-children':
      case 'active':
        return 'already-queued';
      case 'completed':
      case 'failed':
        if ((await queue.remove(aiJobId)) !== 1) continue;
        await enqueueStagingJob(queue, aiJobId);
        return 'replaced';
      case 'unknown':
        await enqueueStagingJob(queue, aiJobId);
        return 'added';
    }
  }
  // Only a job flipping state on every read gets here; it is clearly being handled.
  return 'already-queued';
}

/** What {@link removeWaitingStagingJob} did. */
export type RemoveWaitingResult = 'removed' | 'not-waiting' | 'missing';

/**
 * Removes the message of job `aiJobId` if it is waiting or delayed. An active message is never
 * removed: BullMQ refuses to remove a locked job, so a worker that picked the message up between
 * the state read and the removal keeps it and sees the job's new status in the ledger.
 */
export async function removeWaitingStagingJob(queue: StagingQueue, aiJobId: string): Promise<RemoveWaitingResult> {
  const state = await queue.getJobState(aiJobId);
  if (state === 'unknown') return 'missing';
  if (state !== 'waiting' && state !== 'delayed' && state !== 'prioritized') return 'not-waiting';
  return (await queue.remove(aiJobId)) === 1 ? 'removed' : 'not-waiting';
}

/** Longest a producer request waits on the queue store before giving up on a queue call. */
export const QUEUE_CALL_TIMEOUT_MS = 3_000;

/**
 * Rejects when `operation` takes longer than `timeoutMs`. BullMQ waits for a connection that was
 * never ready without a limit, and a user's submit or cancel must not hang on Redis: every queue
 * call from a request is best-effort on top of the committed ledger, so it is bounded instead.
 * The operation itself may still finish later, which is harmless because each one is idempotent.
 */
export function withQueueTimeout<T>(operation: Promise<T>, what: string, timeoutMs = QUEUE_CALL_TIMEOUT_MS): Promise<T> {
  return withTimeout(operation, timeoutMs, `${what} timed out after ${timeoutMs} ms`);
}
