import type { AttemptEvent } from '@staging/domain/attempt-states';
import { isStagingErrorCode, stagingErrorCategory } from '@staging/domain/staging-errors';
import type { StagingErrorCode } from '@staging/domain/staging-errors';
import { outcomeOfAttemptFailure } from '@staging/domain/staging-states';
import { moveAttempt } from '@staging/services/staging/ledger/attempt-moves';
import { moveJob, moveJobFrom } from '@staging/services/staging/ledger/job-moves';
import type { ReadJob } from '@staging/services/staging/ledger/job-moves';
import { requireChanged, transactIfCurrent } from '@staging/services/staging/ledger/ledger-transaction';
import type { AttemptRow } from '@staging/services/staging/ledger/staging-job-reads';
import type { StagingDeps, StepResult } from './staging-deps';

/** The failure of an attempt that a caught error ends: its message is the attempt's errorMessage. */
export function failureOf(errorCode: StagingErrorCode, error: Error): { errorCode: StagingErrorCode; message: string } {
  return { errorCode, message: error.message };
}

/**
 * Ends an attempt as FAILED through `event` (the table's way out of the status it is in) and moves
 * the job, as it was read, in the same transaction by outcomeOfAttemptFailure: to RETRYING (event
 * retry_scheduled) or to FAILED (event terminal_error plus an alert). When the attempt or the job
 * moved meanwhile (a cancel), the transaction rolls back and the loop re-reads.
 */
export async function failAttempt(
  deps: StagingDeps,
  job: ReadJob,
  attempt: Pick<AttemptRow, 'id' | 'attemptNumber'>,
  event: AttemptEvent,
  failure: { errorCode: StagingErrorCode; message: string; discardObjectKey?: string | null },
): Promise<StepResult> {
  const now = new Date();
  const outcome = outcomeOfAttemptFailure(attempt.attemptNumber, failure.errorCode);
  const errorMessage = failure.message.slice(0, 1000);
  const applied = await transactIfCurrent(deps.db, async (tx) => {
    requireChanged(
      await moveAttempt(tx, attempt.id, event, { errorCode: failure.errorCode, errorMessage, endedAt: now }),
      'attempt',
    );
    if (failure.discardObjectKey) {
      // A stored output that will never be finalized goes to the deletion outbox with the change.
      await tx.storageDeletionOutbox.create({
        data: { objectKey: failure.discardObjectKey, reason: 'STAGED_IMAGE_DELETED' },
      });
    }
    requireChanged(
      await moveJobFrom(tx, job, outcome.event, {
        errorCode: outcome.jobErrorCode,
        errorMessage,
        phase: null,
        ...(outcome.event === 'TERMINAL_FAILURE' ? { completedAt: now } : {}),
      }),
      'job',
    );
  });
  if (!applied) return 'continue';
  if (outcome.event === 'RETRYABLE_FAILURE') {
    deps.stagingLog('retry_scheduled', job.id, {
      attemptId: attempt.id,
      attemptNumber: attempt.attemptNumber,
      errorCode: failure.errorCode,
      errorCategory: stagingErrorCategory(failure.errorCode),
    });
  } else {
    reportTerminal(deps, job.id, attempt, outcome.jobErrorCode, failure.errorCode);
  }
  return 'continue';
}

/** Ends a job FAILED when no attempt is involved (no attempt left to buy). */
export async function failJobWithoutAttempt(
  deps: StagingDeps,
  jobId: string,
  failure: { errorCode: StagingErrorCode; message: string },
): Promise<StepResult> {
  const failed = await moveJob(deps.db, jobId, 'TERMINAL_FAILURE', {
    errorCode: failure.errorCode,
    errorMessage: failure.message,
    phase: null,
    completedAt: new Date(),
  });
  if (failed) reportTerminal(deps, jobId, null, failure.errorCode, failure.errorCode);
  return 'continue';
}

function reportTerminal(
  deps: StagingDeps,
  jobId: string,
  attempt: Pick<AttemptRow, 'id' | 'attemptNumber'> | null,
  jobCode: string,
  attemptCode: string,
): void {
  const errorCategory = isStagingErrorCode(jobCode) ? stagingErrorCategory(jobCode) : 'terminal';
  deps.stagingLog('terminal_error', jobId, {
    attemptId: attempt?.id ?? null,
    attemptNumber: attempt?.attemptNumber ?? null,
    errorCode: jobCode,
    errorCategory,
    attemptErrorCode: attemptCode,
  });
  deps.captureAlert({
    message: `staging job failed: ${jobCode}`,
    level: 'error',
    tags: { jobId, errorCode: jobCode, attemptErrorCode: attemptCode },
  });
}
