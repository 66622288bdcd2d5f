import { Queue } from 'bullmq';
import type { ConnectionOptions } from 'bullmq';
import { z } from 'zod';

/**
 * A message that carries the ledger row's ID only: everything else is read from ai_jobs, so repair
 * can rebuild any message from Postgres and a message never disagrees with the ledger.
 */
export const ZLedgerJobMessage = z.strictObject({
  aiJobId: z.string().min(1).max(100),
  v: z.literal(1),
});

/** `attempts` tries, the n-th retry waiting `firstDelayMs * 2^(n-1)`. */
export function retryWithBackoff(attempts: number, firstDelayMs: number) {
  return { attempts, backoff: { type: 'exponential', delay: firstDelayMs } } as const;
}

/** Failed messages stay a week for inspection in the queue dashboard. */
export const KEEP_FAILED_FOR_A_WEEK = { age: 7 * 24 * 3600 } as const;

/**
 * Retention of a {@link ZLedgerJobMessage}: a finished one has no value (the job's history is in
 * Postgres) and its removal frees the jobId, so repair can add it again while the ledger says the
 * job is open; a failed one is kept a week.
 */
export const LEDGER_MESSAGE_RETENTION = { removeOnComplete: true, removeOnFail: KEEP_FAILED_FOR_A_WEEK } as const;

/**
 * Opens queue `name` for adding and reading messages. A Queue relays every error of its connection,
 * and with no listener BullMQ prints each one with console.error, once per queue and outside the
 * structured log: a Redis outage flooded the api's and web's output with raw stack traces. The
 * connection's own listener (createRedis `onError`) logs those errors once, so the queue's copies
 * are dropped; a Queue raises no errors of its own through that event.
 */
export function openQueue<Data, Result>(name: string, connection: ConnectionOptions): Queue<Data, Result, string> {
  const queue = new Queue<Data, Result, string>(name, { connection });
  queue.on('error', () => undefined);
  return queue;
}
