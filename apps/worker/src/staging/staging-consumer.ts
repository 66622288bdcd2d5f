import { DelayedError, Worker } from 'bullmq';
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { onOwnErrors } from '@staging/platform/queues';
import { acceptMessage, refuseMessage } from '@staging/services/queue-contract';
import { STAGING_MESSAGE } from '@staging/services/staging/staging-queue';
import type { TStagingJobPayload } from '@staging/services/staging/staging-queue';
import { createDeliveryFailures } from './delivery-failures';
import { saveDeliveryState } from './delivery-state';
import { withJobLock } from './job-lock';
import { runStagingJob } from './run-staging-job';
import { wait } from './staging-deps';
import type { RunOutcome, StagingDeps } from './staging-deps';

export interface StagingConsumerOptions {
  queueName: string;
  connection: Redis;
  concurrency: number;
  /** BullMQ job lock; the Postgres job lock, not this, protects purchases. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}

export interface StagingConsumer {
  worker: Worker;
  /** Number of deliveries currently inside the step loop. */
  activeCount(): number;
  /**
   * Stops taking jobs; active deliveries park at their next step boundary (delayed queue job, no
   * state lost). Resolves when all have parked or `graceMs` has passed, whichever is first.
   */
  stop(graceMs: number): Promise<{ drained: boolean }>;
}

/**
 * The ai-staging<QUEUE_SUFFIX> consumer. The queue only delivers: each delivery runs the step loop
 * under the job's Postgres lock and ends either with the job terminal (the queue job completes)
 * or with a wait, which moves the queue job to delayed (job.moveToDelayed + DelayedError, so no
 * BullMQ attempt is used). The webhook receiver promotes the delayed job to wake it early.
 */
export function startStagingConsumer(deps: StagingDeps, options: StagingConsumerOptions): StagingConsumer {
  let stopping = false;
  const active = new Set<string>();
  const failures = createDeliveryFailures(deps);

  async function processDelivery(job: Job, token?: string): Promise<void> {
    const jobId = job.id;
    if (jobId === undefined || token === undefined)
      throw new Error('staging delivery without job id or token');
    const message = acceptMessage(STAGING_MESSAGE, job, deps);
    if (message.aiJobId !== jobId) refuseMessage(STAGING_MESSAGE.queue, job, ['aiJobId: not the queue job id'], deps);
    active.add(jobId);
    let outcome: RunOutcome;
    try {
      outcome = await runUnderJobLock(deps, job, jobId, message, () => stopping);
      failures.cleared(jobId);
      await saveDeliveryState(job, message, outcome);
    } catch (error) {
      outcome = failures.failed(jobId, error);
    } finally {
      active.delete(jobId);
    }
    if (outcome.kind === 'done') return;
    // Debug only: a line per parked delivery is what explains a job that seems stuck.
    deps.logger.debug({ jobId, reason: outcome.reason, delayMs: outcome.delayMs }, 'staging delivery parked');
    await job.moveToDelayed(Date.now() + outcome.delayMs, token);
    throw new DelayedError();
  }

  const worker = createStagingWorker(deps, options, processDelivery);

  return {
    worker,
    activeCount: () => active.size,
    async stop(graceMs) {
      stopping = true;
      const result = await closeWithin(worker, graceMs);
      if (result === 'timeout') {
        deps.logger.warn(
          { active: [...active] },
          'shutdown grace elapsed with deliveries still active; their queue locks will expire and another worker resumes them',
        );
      }
      return { drained: result === 'closed' };
    },
  };
}

/** One delivery's run of the step loop under the job's Postgres lock; a lock held elsewhere means waiting. */
async function runUnderJobLock(
  deps: StagingDeps,
  job: Job,
  jobId: string,
  message: TStagingJobPayload,
  isStopping: () => boolean,
): Promise<RunOutcome> {
  const { timings } = deps.settings;
  const queueWaitMs = Math.max(0, (job.processedOn ?? Date.now()) - job.timestamp);
  const result = await withJobLock(deps.db, jobId, { timeoutMs: timings.jobLockTimeoutMs }, (lock) =>
    runStagingJob(deps, {
      jobId,
      queueAttempt: job.attemptsStarted,
      queueWaitMs,
      lock,
      isStopping,
      throttleCount: message.throttleCount ?? 0,
      absenceSeen: message.absenceSeen ?? null,
    }),
  );
  if (!result.acquired)
    deps.logger.info(
      { jobId, queueAttempt: job.attemptsStarted },
      'job lock held by another run; re-delivering later',
    );
  return result.acquired ? result.value : wait(timings.lockBusyRetryMs, 'job-lock-busy');
}

/** The BullMQ worker that runs `processDelivery`, with its own and its failed jobs' errors logged. */
function createStagingWorker(
  deps: StagingDeps,
  options: StagingConsumerOptions,
  processDelivery: (job: Job, token?: string) => Promise<void>,
): Worker {
  const worker = new Worker(options.queueName, processDelivery, {
    connection: options.connection,
    concurrency: options.concurrency,
    lockDuration: options.lockDurationMs ?? 30_000,
    stalledInterval: options.stalledIntervalMs ?? 30_000,
    // A stalled delivery is re-run from the ledger, which is safe; failing the queue job after a
    // couple of stalls would only strand a nonterminal job until the dispatcher re-adds it.
    maxStalledCount: 1_000,
    removeOnComplete: { age: 24 * 3_600, count: 10_000 },
    removeOnFail: { age: 7 * 24 * 3_600 },
  });
  onOwnErrors(worker, (error) => deps.logger.error({ err: error, queue: options.queueName }, 'staging consumer error'));
  worker.on('failed', (job, error) => {
    if (error instanceof DelayedError || error.name === 'DelayedError') return;
    deps.logger.error({ jobId: job?.id, err: error }, 'staging queue job failed');
  });
  return worker;
}

/** Closes `worker` (its active deliveries park first), or gives up waiting after `graceMs`. */
async function closeWithin(worker: Worker, graceMs: number): Promise<'closed' | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), graceMs);
  });
  const closed = worker.close().then(() => 'closed' as const);
  const result = await Promise.race([closed, timedOut]);
  clearTimeout(timer);
  return result;
}
