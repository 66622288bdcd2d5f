import { LINE_REJOIN_EVENTS } from '@staging/domain/start-line';
import { NONTERMINAL_JOB_STATUSES } from '@staging/domain/staging-states';
import type { StagingActionDeps } from './staging-deps';
import { enqueueStagingJob } from './staging-queue';

/** Counts of one {@link repairStagingQueue} run. */
export interface RepairCounts {
  /** Nonterminal ROOM_STAGING jobs looked at. */
  scanned: number;
  /** Their message was waiting, delayed or active: nothing to do. */
  queued: number;
  /** No message existed (Redis flushed, enqueue failed after commit): added. */
  added: number;
  /** The message had completed or failed although the ledger says the job is open: replaced. */
  replaced: number;
  /** Jobs whose queue calls failed this run; the next run retries them. */
  errors: number;
}

const PAGE_SIZE = 200;

/**
 * Rebuilds delivery state from the ledger (ai_jobs is the outbox, docs/system.md 1.3): every nonterminal
 * ROOM_STAGING job gets a live queue message with jobId = ai_jobs.id. Safe at any time and from
 * several processes: adds are idempotent by jobId, and a message for a job that turns terminal
 * meanwhile is a no-op for the worker. The worker runs it at boot and periodically; the CLI
 * `repair-queue-cli.ts` runs it by hand.
 */
export async function repairStagingQueue(deps: Pick<StagingActionDeps, 'db' | 'stagingQueue' | 'logger'>): Promise<RepairCounts> {
  const { db, stagingQueue: queue, logger } = deps;
  const counts: RepairCounts = { scanned: 0, queued: 0, added: 0, replaced: 0, errors: 0 };
  let afterId: string | undefined;
  for (;;) {
    const page = await db.aiJob.findMany({
      where: {
        type: 'ROOM_STAGING',
        status: { in: [...NONTERMINAL_JOB_STATUSES] },
        ...(afterId === undefined ? {} : { id: { gt: afterId } }),
      },
      select: { id: true, status: true },
      orderBy: { id: 'asc' },
      take: PAGE_SIZE,
    });
    for (const job of page) {
      counts.scanned += 1;
      try {
        const state = await queue.getJobState(job.id);
        if (state === 'unknown') {
          await enqueueStagingJob(queue, job.id);
          counts.added += 1;
          logger.info({ event: LINE_REJOIN_EVENTS.queueRepaired, jobId: job.id, status: job.status, found: state }, LINE_REJOIN_EVENTS.queueRepaired);
        } else if (state === 'completed' || state === 'failed') {
          // A finished message blocks an add with the same jobId, so it goes first.
          await queue.remove(job.id);
          await enqueueStagingJob(queue, job.id);
          counts.replaced += 1;
          logger.info({ event: LINE_REJOIN_EVENTS.queueRepaired, jobId: job.id, status: job.status, found: state }, LINE_REJOIN_EVENTS.queueRepaired);
        } else {
          counts.queued += 1;
        }
      } catch (error) {
        counts.errors += 1;
        logger.warn({ event: 'ai_room_staging.queue_repair_failed', jobId: job.id, err: error }, 'ai_room_staging.queue_repair_failed');
      }
    }
    if (page.length < PAGE_SIZE) break;
    afterId = page[page.length - 1]?.id;
  }
  logger.info({ event: 'ai_room_staging.queue_repair_finished', ...counts }, 'ai_room_staging.queue_repair_finished');
  return counts;
}
