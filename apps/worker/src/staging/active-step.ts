import {
  classifyTerminalPrediction,
  failureCategoryOf,
  isTerminal,
} from '@staging/provider/prediction-status';
import { ProviderError } from '@staging/provider/provider-error';
import type { Prediction } from '@staging/provider/provider-wire';
import { failAttempt, failureOf } from './attempt-failure';
import { recordProviderCompletion } from '@staging/services/staging/ledger/attempt-moves';
import type { ReadJob } from '@staging/services/staging/ledger/job-moves';
import { predictionIdOf } from '@staging/services/staging/ledger/staging-job-reads';
import type { AttemptRow, StagedJobRow } from '@staging/services/staging/ledger/staging-job-reads';
import { handleOutput } from './output-step';
import { wait } from './staging-deps';
import type { StagingDeps, StagingRun, StepResult } from './staging-deps';

/**
 * An ACTIVE attempt: poll its persisted prediction (polls never spend a paid-start token) until
 * terminal, then hand a success to the output step or end the attempt. An output stored by an
 * earlier delivery that died before finalizing is finalized from storage without asking the
 * provider again.
 */
export async function advanceActive(
  deps: StagingDeps,
  run: StagingRun,
  job: StagedJobRow,
  attempt: AttemptRow,
): Promise<StepResult> {
  const predictionId = predictionIdOf(attempt);
  if (attempt.outputObjectKey !== null && attempt.providerStatus === 'succeeded') {
    return handleOutput(deps, run, job, attempt, null);
  }
  let prediction: Prediction;
  try {
    prediction = await deps.provider.getPrediction(predictionId);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.kind === 'auth') {
      return failAttempt(deps, job, attempt, 'PROVIDER_FAILED', failureOf('PROVIDER_AUTH', error));
    }
    if (error.kind === 'not_found') {
      return failAttempt(deps, job, attempt, 'PROVIDER_FAILED', {
        errorCode: 'PROVIDER_ABORTED',
        message: 'the provider no longer knows the persisted prediction',
      });
    }
    deps.logger.warn(
      { jobId: run.jobId, attemptId: attempt.id, kind: error.kind },
      'prediction poll failed; retrying later',
    );
    return wait(deps.settings.timings.transientBackoffMs, 'provider-poll-unavailable');
  }

  if (!isTerminal(prediction.status)) {
    const createdAt = (attempt.predictionCreatedAt ?? attempt.createdAt).getTime();
    if (Date.now() - createdAt > deps.settings.timings.predictionTimeoutMs)
      return timeOut(deps, job, attempt);
    await deps.boundary('while-waiting', run.jobId);
    return wait(deps.settings.timings.pollIntervalMs, 'waiting-for-provider');
  }

  const recorded = await recordProviderCompletion(deps.db, attempt.id, prediction.status);
  if (recorded) {
    deps.stagingLog('provider_terminal', run.jobId, {
      attemptId: attempt.id,
      attemptNumber: attempt.attemptNumber,
      predictionId,
      providerStatus: prediction.status,
    });
  }
  const completedAt = recorded ? new Date() : attempt.providerCompletedAt;
  const current = { ...attempt, providerStatus: prediction.status, providerCompletedAt: completedAt };
  switch (classifyTerminalPrediction(prediction)) {
    case 'succeeded':
      return handleOutput(deps, run, job, current, prediction);
    case 'retryable_failure':
      return failAttempt(deps, job, attempt, 'PROVIDER_FAILED', {
        errorCode: prediction.status === 'aborted' ? 'PROVIDER_ABORTED' : 'PROVIDER_FAILED',
        message: prediction.error ?? `prediction ${prediction.status}`,
      });
    case 'permanent_failure': {
      // Safety and input rejections name our request; anything else failed without evidence that
      // paying again could help (docs/decisions/staging.md "Staging error codes and retry categories").
      const category = failureCategoryOf(prediction);
      return failAttempt(deps, job, attempt, 'PROVIDER_FAILED', {
        errorCode:
          category === 'safety' || category === 'input'
            ? 'PROVIDER_REJECTED_INPUT'
            : 'PROVIDER_FAILED_PERMANENT',
        message: prediction.error ?? 'prediction failed',
      });
    }
    case 'canceled':
      // Canceled at the provider without a cancel request on the job (the job is PROCESSING).
      return failAttempt(deps, job, attempt, 'PROVIDER_FAILED', {
        errorCode: 'PROVIDER_ABORTED',
        message: 'the prediction was canceled at the provider without a cancel request',
      });
  }
}

/** A prediction that never completes is canceled (best effort) and counted as a timeout. */
async function timeOut(deps: StagingDeps, job: ReadJob, attempt: AttemptRow): Promise<StepResult> {
  try {
    await deps.provider.cancelPrediction(predictionIdOf(attempt));
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.kind !== 'not_found' && error.kind !== 'invalid') {
      return wait(deps.settings.timings.transientBackoffMs, 'provider-cancel-unavailable');
    }
  }
  return failAttempt(deps, job, attempt, 'PROVIDER_FAILED', {
    errorCode: 'PROVIDER_TIMEOUT',
    message: `prediction not terminal after ${deps.settings.timings.predictionTimeoutMs} ms; canceled`,
  });
}
