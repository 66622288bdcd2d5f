import { isOpenAttemptStatus } from '@staging/domain/attempt-states';
import { ProviderError } from '@staging/provider/provider-error';
import { findExistingPrediction, persistPrediction } from './create-step';
import { moveAttempt } from '@staging/services/staging/ledger/attempt-moves';
import { moveJob } from '@staging/services/staging/ledger/job-moves';
import { requireChanged, transactIfCurrent } from '@staging/services/staging/ledger/ledger-transaction';
import type { AttemptRow, StagingJobRow } from '@staging/services/staging/ledger/staging-job-reads';
import { wait } from './staging-deps';
import type { StagingDeps, StagingRun, StepResult } from './staging-deps';

type AttemptEnding = {
  /** The attempt event, which leads to the status of the same name. */
  status: 'CANCELED' | 'DISCARDED';
  providerStatus: string | null;
  discardObjectKey: string | null;
};

/**
 * CANCEL_REQUESTED → CANCELED (docs/system.md 3.1). The open attempt is canceled at the provider when a
 * prediction exists (or may exist: a CREATING attempt is recovered first, so a purchase in flight
 * is canceled rather than forgotten). A prediction that already succeeded is DISCARDED; when its
 * output already reached storage, the object goes to the deletion outbox in the same transaction
 * as the CANCELED update (event output_discarded). Runs with the kill switch off too.
 */
export async function advanceCancel(
  deps: StagingDeps,
  run: StagingRun,
  job: StagingJobRow,
): Promise<StepResult> {
  const attempt = job.attempts.find((a) => isOpenAttemptStatus(a.status));
  let ending: AttemptEnding | null = null;
  if (attempt !== undefined) {
    const decided = await decideEnding(deps, run, job, attempt);
    if (decided === 'continue' || 'kind' in decided) return decided;
    ending = decided;
  }
  const now = new Date();
  const applied = await transactIfCurrent(deps.db, async (tx) => {
    if (attempt !== undefined && ending !== null) {
      requireChanged(
        await moveAttempt(tx, attempt.id, ending.status, {
          endedAt: now,
          ...(ending.providerStatus === null ? {} : { providerStatus: ending.providerStatus }),
        }),
        'attempt',
      );
      if (ending.discardObjectKey !== null) {
        await tx.storageDeletionOutbox.create({
          data: { objectKey: ending.discardObjectKey, reason: 'STAGED_IMAGE_DELETED' },
        });
      }
    }
    requireChanged(
      await moveJob(tx, run.jobId, ending?.discardObjectKey ? 'OUTPUT_DISCARDED' : 'CANCEL_FINALIZED', {
        canceledAt: now,
        phase: null,
      }),
      'job',
    );
  });
  if (!applied) return 'continue';
  if (attempt !== undefined && ending?.discardObjectKey) {
    deps.stagingLog('output_discarded', run.jobId, {
      attemptId: attempt.id,
      attemptNumber: attempt.attemptNumber,
      predictionId: attempt.providerPredictionId,
      objectKey: ending.discardObjectKey,
    });
  }
  deps.stagingLog('canceled', run.jobId, {
    attemptId: attempt?.id ?? null,
    attemptStatus: ending?.status ?? null,
    predictionId: attempt?.providerPredictionId ?? null,
  });
  return 'continue';
}

async function decideEnding(
  deps: StagingDeps,
  run: StagingRun,
  job: StagingJobRow,
  attempt: AttemptRow,
): Promise<AttemptEnding | StepResult> {
  const timings = deps.settings.timings;
  if (attempt.status === 'RESERVED')
    return { status: 'CANCELED', providerStatus: null, discardObjectKey: null };

  if (attempt.providerPredictionId === null) {
    // CREATING: a purchase may be in flight. Find it so it can be canceled at the provider.
    if (attempt.errorCode === 'PROVIDER_THROTTLED')
      return { status: 'CANCELED', providerStatus: null, discardObjectKey: null };
    const found = await findExistingPrediction(deps, job, attempt);
    if (found.kind === 'found') return persistPrediction(deps, run, attempt, found.id, found.source, found.status);
    const since = (attempt.creatingAt ?? attempt.createdAt).getTime();
    const remaining = since + timings.createRecoveryGraceMs - Date.now();
    if (remaining > 0)
      return wait(Math.min(remaining, timings.recoveryPollMs), 'recovering-prediction-for-cancel');
    if (found.kind !== 'absent') {
      // Canceled either way, but a purchase nobody can see may be on the bill: a person checks.
      deps.captureAlert({
        message: 'canceled a staging attempt whose purchase can be neither found nor ruled out',
        level: 'error',
        tags: { jobId: run.jobId, errorCode: 'PURCHASE_UNCONFIRMED' },
      });
    }
    return { status: 'CANCELED', providerStatus: null, discardObjectKey: null };
  }

  // ACTIVE with a prediction: cancel it (a finished prediction is returned unchanged).
  let providerStatus: string | null = attempt.providerStatus;
  try {
    const prediction = await deps.provider.cancelPrediction(attempt.providerPredictionId);
    providerStatus = prediction.status;
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.kind === 'throttled' || error.kind === 'server' || error.kind === 'network') {
      return wait(timings.transientBackoffMs, 'provider-cancel-unavailable');
    }
    if (error.kind === 'auth') {
      deps.captureAlert({
        message: 'provider refused to cancel a prediction (401/403); it may still be billed',
        level: 'error',
        tags: { jobId: run.jobId, errorCode: 'PROVIDER_AUTH' },
      });
    }
  }
  if (attempt.outputObjectKey !== null) {
    return { status: 'DISCARDED', providerStatus, discardObjectKey: attempt.outputObjectKey };
  }
  return {
    status: providerStatus === 'succeeded' ? 'DISCARDED' : 'CANCELED',
    providerStatus,
    discardObjectKey: null,
  };
}
