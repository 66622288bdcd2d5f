import { MAX_ATTEMPTS_PER_JOB } from '@staging/domain/attempt-states';
import type { AttemptStatus } from '@staging/domain/attempt-states';
import {
  isRetryableStagingError,
  isStagingErrorCode,
  stagingErrorCategory,
} from '@staging/domain/staging-errors';
import type { StagingErrorCode } from '@staging/domain/staging-errors';
import { requireChanged, transactIfCurrent, updateAttemptIf, updateJobIf } from './job-ledger';
import type { AttemptRow } from './job-ledger';
import type { StagingDeps, StepResult } from './staging-deps';

/** The failure of an attempt that a caught error ends: its message is the attempt's errorMessage. */
export function failureOf(errorCode: StagingErrorCode, error: Error): { errorCode: StagingErrorCode; message: string } {
  return { errorCode, message: error.message };
}

/**
 * Ends an attempt as FAILED and moves the job in the same transaction: to RETRYING when the code
 * is retryable and attempt 2 is still unused (event retry_scheduled), otherwise to FAILED (event
 * terminal_error plus an alert). A retryable failure of the last attempt is recorded on the job as
 * ATTEMPTS_EXHAUSTED, the attempt keeps its own code. When the job moved meanwhile (a cancel), the
 * transaction rolls back and the loop re-reads.
 */
export async function failAttempt(
  deps: StagingDeps,
  jobId: string,
  attempt: Pick<AttemptRow, 'id' | 'attemptNumber'>,
  from: readonly AttemptStatus[],
  failure: { errorCode: StagingErrorCode; message: string; discardObjectKey?: string | null },
): Promise<StepResult> {
  const now = new Date();
  const retry = isRetryableStagingError(failure.errorCode) && attempt.attemptNumber < MAX_ATTEMPTS_PER_JOB;
  const jobCode: StagingErrorCode =
    retry || !isRetryableStagingError(failure.errorCode) ? failure.errorCode : 'ATTEMPTS_EXHAUSTED';
  const applied = await transactIfCurrent(deps.db, async (tx) => {
    requireChanged(
      await updateAttemptIf(tx, attempt.id, from, {
        status: 'FAILED',
        errorCode: failure.errorCode,
        errorMessage: failure.message.slice(0, 1000),
        endedAt: now,
      }),
      'attempt',
    );
    if (failure.discardObjectKey) {
      // A stored output that will never be finalized goes to the deletion outbox with the change.
      await tx.storageDeletionOutbox.create({
        data: { objectKey: failure.discardObjectKey, reason: 'STAGED_IMAGE_DELETED' },
      });
    }
    requireChanged(
      await updateJobIf(
        tx,
        jobId,
        ['PROCESSING'],
        retry
          ? {
              status: 'RETRYING',
              errorCode: failure.errorCode,
              errorMessage: failure.message.slice(0, 1000),
              phase: null,
            }
          : {
              status: 'FAILED',
              errorCode: jobCode,
              errorMessage: failure.message.slice(0, 1000),
              phase: null,
              completedAt: now,
            },
      ),
      'job',
    );
  });
  if (!applied) return 'continue';
  if (retry) {
    deps.events('retry_scheduled', jobId, {
      attemptId: attempt.id,
      attemptNumber: attempt.attemptNumber,
      errorCode: failure.errorCode,
      errorCategory: stagingErrorCategory(failure.errorCode),
    });
  } else {
    reportTerminal(deps, jobId, attempt, jobCode, failure.errorCode);
  }
  return 'continue';
}

/** Ends a job FAILED when no attempt is involved (e.g. the original photo is gone). */
export async function failJobWithoutAttempt(
  deps: StagingDeps,
  jobId: string,
  failure: { errorCode: StagingErrorCode; message: string },
  openAttempt: Pick<AttemptRow, 'id' | 'attemptNumber' | 'status'> | undefined,
): Promise<StepResult> {
  const now = new Date();
  const applied = await transactIfCurrent(deps.db, async (tx) => {
    if (openAttempt !== undefined) {
      requireChanged(
        await updateAttemptIf(tx, openAttempt.id, ['RESERVED'], {
          status: 'FAILED',
          errorCode: failure.errorCode,
          errorMessage: failure.message,
          endedAt: now,
        }),
        'attempt',
      );
    }
    requireChanged(
      await updateJobIf(tx, jobId, ['PENDING', 'PROCESSING', 'RETRYING'], {
        status: 'FAILED',
        errorCode: failure.errorCode,
        errorMessage: failure.message,
        phase: null,
        completedAt: now,
      }),
      'job',
    );
  });
  if (applied) reportTerminal(deps, jobId, openAttempt ?? null, failure.errorCode, failure.errorCode);
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
  deps.events('terminal_error', jobId, {
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
