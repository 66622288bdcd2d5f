import { decideAttemptReservation, isOpenAttemptStatus } from '@staging/domain/attempt-states';
import { isNonterminalJobStatus } from '@staging/domain/staging-states';
import { advanceActive } from './active-step';
import { failJobWithoutAttempt } from './attempt-failure';
import { advanceCancel } from './cancel-step';
import { advanceCreation, parkWhileDisabled, persistPrediction, reserveAttempt } from './create-step';
import { insertReservedAttempt } from '@staging/services/staging/ledger/attempt-moves';
import { moveJob, setJobPhase, touchHeartbeat } from '@staging/services/staging/ledger/job-moves';
import { requireChanged, transactIfCurrent } from '@staging/services/staging/ledger/ledger-transaction';
import { loadStagingJob } from '@staging/services/staging/ledger/staging-job-reads';
import { hasStaging } from '@staging/services/staging/ledger/staging-job-reads';
import type { StagedJobRow, StagingJobRow } from '@staging/services/staging/ledger/staging-job-reads';
import { done, wait } from './staging-deps';
import type { RunOutcome, StagingDeps, StagingRun, StepResult } from './staging-deps';

/** A delivery never loops forever; a job needs far fewer steps than this to reach a wait. */
const MAX_STEPS_PER_DELIVERY = 40;

/**
 * The staging step loop for one delivery of a job. Each iteration re-reads the ledger, performs
 * exactly one persisted step and goes round again, until the job is terminal (done) or has to wait
 * (provider running, kill switch, paid-start limit, backoff), which the consumer turns into a delayed
 * queue job. Every step is safe to re-run from whatever the ledger says, so a crash or a duplicate
 * delivery at any point resumes instead of repeating a purchase.
 */
export async function runStagingJob(deps: StagingDeps, run: StagingRun): Promise<RunOutcome> {
  const heartbeat = setInterval(() => {
    touchHeartbeat(deps.db, run.jobId).catch((error: unknown) =>
      deps.logger.warn({ jobId: run.jobId, err: error }, 'heartbeat failed'),
    );
  }, deps.settings.timings.heartbeatIntervalMs);
  try {
    for (let step = 0; step < MAX_STEPS_PER_DELIVERY; step += 1) {
      await deps.backgroundTurn();
      if (run.isStopping()) return wait(0, 'worker-stopping');
      const job = await loadStagingJob(run.lock, run.jobId);
      if (step === 0 && needsHeartbeat(deps, job)) await touchHeartbeat(deps.db, run.jobId);
      const result = await advance(deps, run, job);
      if (result === 'continue') continue;
      // A job that will never start again must not hold a place that others wait behind.
      if (result.kind === 'done') await deps.limiter.leave(run.jobId);
      return result;
    }
    deps.logger.error({ jobId: run.jobId }, 'step budget of one delivery exhausted; re-delivering');
    return wait(deps.settings.timings.transientBackoffMs, 'step-budget');
  } finally {
    clearInterval(heartbeat);
  }
}

/**
 * Every delivery (a poll included) proves the job is alive, so heartbeatAt stays fresh while a
 * job waits for the provider between deliveries (docs/system.md 8 stale-heartbeat alerts). A
 * heartbeat younger than the heartbeat interval is left alone: the step writes set it too, and a
 * transaction to move it by a second tells the alerts nothing. Neither is a PENDING job that is
 * about to start, whose start transition writes it.
 */
function needsHeartbeat(deps: StagingDeps, job: StagingJobRow | null): boolean {
  if (job === null || !isNonterminalJobStatus(job.status)) return false;
  if (job.status === 'PENDING' && deps.settings.stagingEnabled) return false;
  return job.heartbeatAt === null || Date.now() - job.heartbeatAt.getTime() >= deps.settings.timings.heartbeatIntervalMs;
}

async function advance(deps: StagingDeps, run: StagingRun, job: StagingJobRow | null): Promise<StepResult> {
  if (job === null || !hasStaging(job)) {
    deps.logger.warn({ jobId: run.jobId }, 'staging job row not found; dropping the queue job');
    return done;
  }
  switch (job.status) {
    case 'SUCCESS':
    case 'CANCELED':
    case 'FAILED':
      return done;
    case 'CANCEL_REQUESTED':
      return advanceCancel(deps, run, job);
    case 'PENDING':
      return start(deps, run, job);
    case 'RETRYING':
      return advanceRetrying(deps, run, job);
    case 'PROCESSING':
      return advanceProcessing(deps, run, job);
  }
}

/**
 * PENDING → PROCESSING. A job with no attempt yet reserves attempt 1 in the same transaction: the
 * state is the one the next step would write anyway (PROCESSING with a RESERVED attempt), one
 * commit sooner.
 */
async function start(deps: StagingDeps, run: StagingRun, job: StagingJobRow): Promise<StepResult> {
  if (!deps.settings.stagingEnabled) return parkWhileDisabled(deps, run, job);
  const reserveFirst = job.attempts.length === 0;
  const started = await transactIfCurrent(deps.db, async (tx) => {
    requireChanged(
      await moveJob(tx, run.jobId, 'WORKER_PICKED_UP', { phase: null, startedAt: job.startedAt ?? new Date() }),
      'job',
    );
    if (reserveFirst) await insertReservedAttempt(tx, run.jobId, 1);
  });
  if (!started) return 'continue';
  deps.stagingLog('worker_started', run.jobId, {
    queueAttempt: run.queueAttempt,
    queueWaitMs: run.queueWaitMs,
  });
  if (reserveFirst) await deps.boundary('after-reserve', run.jobId);
  return 'continue';
}

/** RETRYING: after a short pause, reserve attempt 2 and go back to PROCESSING in one transaction. */
async function advanceRetrying(deps: StagingDeps, run: StagingRun, job: StagingJobRow): Promise<StepResult> {
  const decision = decideAttemptReservation(job.attempts);
  if (!decision.allowed) {
    if (decision.reason === 'ATTEMPT_OPEN') {
      await moveJob(deps.db, run.jobId, 'RETRY_STARTED', { phase: null });
      return 'continue';
    }
    return failJobWithoutAttempt(deps, run.jobId, { errorCode: 'ATTEMPTS_EXHAUSTED', message: 'no attempt left to retry' });
  }
  if (!deps.settings.stagingEnabled) return parkWhileDisabled(deps, run, job);
  const lastEnded = job.attempts.at(-1)?.endedAt?.getTime() ?? 0;
  const remaining = lastEnded + deps.settings.timings.retryDelayMs - Date.now();
  if (remaining > 0) return wait(remaining, 'retry-delay');
  const attemptNumber = decision.attemptNumber;
  const moved = await transactIfCurrent(deps.db, async (tx) => {
    await insertReservedAttempt(tx, run.jobId, attemptNumber);
    requireChanged(await moveJob(tx, run.jobId, 'RETRY_STARTED', { phase: null }), 'job');
  });
  if (moved) await deps.boundary('after-reserve', run.jobId);
  return 'continue';
}

async function advanceProcessing(
  deps: StagingDeps,
  run: StagingRun,
  job: StagedJobRow,
): Promise<StepResult> {
  const open = job.attempts.find((a) => isOpenAttemptStatus(a.status));
  if (open === undefined) {
    const decision = decideAttemptReservation(job.attempts);
    if (!decision.allowed) {
      return failJobWithoutAttempt(deps, run.jobId, { errorCode: 'ATTEMPTS_EXHAUSTED', message: 'no attempt left' });
    }
    // Reserving is free, but docs/system.md 1.7 keeps a disabled job before any new attempt.
    if (!deps.settings.stagingEnabled) return parkWhileDisabled(deps, run, job);
    if (job.phase !== null) await setJobPhase(deps.db, job, null);
    return reserveAttempt(deps, run, decision.attemptNumber);
  }
  switch (open.status) {
    case 'RESERVED':
      return advanceCreation(deps, run, job, open);
    case 'CREATING':
      // The webhook receiver may have filled a lost prediction ID on the attempt already.
      if (open.providerPredictionId !== null) {
        return persistPrediction(
          deps,
          run,
          open,
          open.providerPredictionId,
          'webhook_receipt',
          open.providerStatus,
        );
      }
      return advanceCreation(deps, run, job, open);
    default:
      if (job.phase !== null) await setJobPhase(deps.db, job, null);
      return advanceActive(deps, run, job, open);
  }
}
