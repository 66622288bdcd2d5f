/**
 * The paid part of the loop: reserve → token → lock check → CREATING → create → persist, and the
 * recovery of a CREATING attempt whose prediction ID was never persisted (a crash, a lost
 * response, a stale run). Rules (docs/decisions/staging.md "Recovering a CREATING attempt" and "Evidence
 * for an unknown create"; docs/system.md states them for operators):
 * - An attempt becomes CREATING, with the fingerprint of the exact input and the callback URL sent,
 *   only after the job-lock check and immediately before the request; recovery compares with
 *   those, never with values recomputed from current config. A RESERVED attempt was never sent
 *   and goes ahead at once; CREATING without a prediction ID means "a purchase may exist".
 * - Every create carries Cancel-After, so a purchase is terminal by creatingAt + that deadline,
 *   and its final webhook, retried by the provider, is over a minute or so later: the evidence
 *   deadline. Only evidence settles the attempt: a receipt on its own callback URL (the `start`
 *   or final webhook carries the prediction ID), or a match in the provider's list
 *   (prediction-recovery.ts).
 * - errorCode PROVIDER_THROTTLED on a CREATING attempt records that the latest create call was
 *   answered 429, i.e. nothing was bought; such an attempt may call create again right away.
 * - "Nothing was bought" needs all of: the evidence deadline has passed, the api answers on the
 *   callback origin, and two list walks at least absenceConfirmGapMs apart both found nothing.
 *   Then, after a transport failure (PROVIDER_UNAVAILABLE) the attempt ends FAILED and attempt 2
 *   may follow; after a crash the same attempt creates again.
 * - Until then it waits: no purchase, no failure. A throttled list only delays. Doubt that
 *   outlives the deadline by createRecoveryGraceMs (a possible match, a list that keeps failing,
 *   an api that does not answer) fails the job closed with PURCHASE_UNCONFIRMED and an alert;
 *   nothing more is bought for it.
 * The job lock guarantees no other live run of this job is inside a create call meanwhile.
 */
import { randomUUID } from 'node:crypto';
import { backoffDelayMs } from '@staging/provider/backoff';
import { offsetFromTimestamp, recoveryAllowanceMs } from '@staging/domain/clock-offset';
import { fingerprintPredictionInput, searchPredictionByInput } from '@staging/provider/prediction-recovery';
import { ProviderError } from '@staging/provider/provider-error';
import type { Prediction, PredictionInput } from '@staging/provider/provider-wire';
import { hashUserId } from '@staging/provider/user-hash';
import { stagingWebhookUrl } from '@staging/provider/webhook-url';
import type { StagingErrorCode } from '@staging/domain/staging-errors';
import { fairShareParty, LINE_REJOIN_EVENTS, WAITING_FOR_START_SLOT } from '@staging/domain/start-line';
import { failAttempt, failureOf } from './attempt-failure';
import { markCreatingWithinCap, parkWhileCapReached } from './daily-purchase-cap';
import { recordProviderClock } from './provider-clock-measure';
import {
  insertReservedAttempt,
  markAttemptCreating,
  moveAttempt,
  noteCreateError,
} from '@staging/services/staging/ledger/attempt-moves';
import { moveJobFrom, setJobPhase } from '@staging/services/staging/ledger/job-moves';
import type { ReadJob } from '@staging/services/staging/ledger/job-moves';
import { isPredictionHeldByOtherAttempt } from '@staging/services/staging/ledger/staging-job-reads';
import type { AttemptRow, StagedJobRow, StagingJobRow } from '@staging/services/staging/ledger/staging-job-reads';
import { wait } from './staging-deps';
import type { RunOutcome, StagingDeps, StagingRun, StepResult } from './staging-deps';

const MAX_THROTTLE_BACKOFF_MS = 60_000;

export async function reserveAttempt(
  deps: StagingDeps,
  run: StagingRun,
  attemptNumber: 1 | 2,
): Promise<StepResult> {
  await insertReservedAttempt(deps.db, run.jobId, attemptNumber);
  await deps.boundary('after-reserve', run.jobId);
  return 'continue';
}

/** Parks the job while the kill switch is off; nothing is bought, the status is kept. */
export async function parkWhileDisabled(
  deps: StagingDeps,
  run: StagingRun,
  job: StagingJobRow,
): Promise<StepResult> {
  if (job.phase !== 'PROVIDER_DISABLED') {
    await moveJobFrom(deps.db, job, 'PROVIDER_DISABLED', { phase: 'PROVIDER_DISABLED' });
    deps.logger.info(
      { jobId: run.jobId, status: job.status },
      'provider disabled: job parked without purchase',
    );
  }
  return wait(deps.settings.timings.disabledRecheckMs, 'provider-disabled');
}

/** Advances a RESERVED attempt, or a CREATING one without a persisted prediction ID. */
export async function advanceCreation(
  deps: StagingDeps,
  run: StagingRun,
  job: StagedJobRow,
  attempt: AttemptRow,
): Promise<StepResult> {
  const webhook = stagingWebhookUrl(deps.settings.webhookBaseUrl, attempt.id);
  if (attempt.status === 'CREATING' && attempt.errorCode !== 'PROVIDER_THROTTLED') {
    const recovered = await recoverCreating(deps, run, job, attempt);
    if (recovered !== 'create-again') return recovered;
  }
  if (!deps.settings.stagingEnabled) return parkWhileDisabled(deps, run, job);
  const capped = await parkWhileCapReached(deps, run, job, attempt.id);
  if (capped !== null) return capped;
  if (job.phase !== null && job.phase !== WAITING_FOR_START_SLOT) await setJobPhase(deps.db, job, null);
  return createPrediction(deps, run, job, attempt, webhook);
}

/** Settles a CREATING attempt from the evidence, or says it may buy again. */
async function recoverCreating(
  deps: StagingDeps,
  run: StagingRun,
  job: StagingJobRow,
  attempt: AttemptRow,
): Promise<StepResult | 'create-again'> {
  const found = await findExistingPrediction(deps, job, attempt);
  if (found.kind === 'found')
    return persistPrediction(deps, run, attempt, found.id, found.source, found.status);
  const timings = deps.settings.timings;
  const now = Date.now();
  const evidenceAt = evidenceDeadline(deps, attempt);
  const giveUpAt = evidenceAt + timings.createRecoveryGraceMs;

  if (found.kind === 'throttled') {
    // Reads are budgeted, and a throttled read proves nothing either way: only wait.
    return wait(Math.max(timings.recoveryPollMs, (found.retryAfterSeconds ?? 0) * 1000), 'recovering-prediction-throttled');
  }
  if (found.kind === 'undecidable') {
    if (now < giveUpAt) return wait(timings.recoveryPollMs, 'recovering-prediction');
    return failClosed(deps, run, job, attempt, found.reason);
  }
  // The list holds nothing that could be ours. That is evidence only once any purchase would be
  // terminal and its callbacks over, with the api there to receive them, and seen twice.
  if (now < evidenceAt) return wait(timings.recoveryPollMs, 'recovering-prediction');
  if (!(await deps.callbackPathUp(attempt.webhookUrl ?? stagingWebhookUrl(deps.settings.webhookBaseUrl, attempt.id)))) {
    if (now < giveUpAt) return wait(timings.recoveryPollMs, 'recovering-prediction-callbacks-unproven');
    return failClosed(deps, run, job, attempt, 'the api did not answer on the callback origin');
  }
  const seen = run.absenceSeen?.attemptId === attempt.id && run.absenceSeen.atMs >= evidenceAt ? run.absenceSeen : null;
  if (seen === null) {
    return wait(timings.absenceConfirmGapMs, 'confirming-absence', { absenceSeen: { attemptId: attempt.id, atMs: now } });
  }
  if (now - seen.atMs < timings.absenceConfirmGapMs) {
    return wait(timings.absenceConfirmGapMs - (now - seen.atMs), 'confirming-absence', { absenceSeen: seen });
  }
  if (attempt.errorCode === 'PROVIDER_UNAVAILABLE') {
    return failAttempt(deps, job, attempt, 'CREATE_REJECTED', {
      errorCode: 'PROVIDER_UNAVAILABLE',
      message: 'prediction creation failed in transport and the provider shows no prediction for it',
    });
  }
  deps.logger.warn(
    { event: LINE_REJOIN_EVENTS.createAgain, jobId: run.jobId, attemptId: attempt.id, attemptNumber: attempt.attemptNumber, scanned: found.scanned },
    'the provider shows no prediction for a CREATING attempt; creating it',
  );
  return 'create-again';
}

function failClosed(deps: StagingDeps, run: StagingRun, job: ReadJob, attempt: AttemptRow, reason: string): Promise<StepResult> {
  deps.logger.error(
    { jobId: run.jobId, attemptId: attempt.id, attemptNumber: attempt.attemptNumber, reason },
    'purchase of a CREATING attempt can be neither found nor ruled out; failing closed',
  );
  return failAttempt(deps, job, attempt, 'CREATE_REJECTED', {
    errorCode: 'PURCHASE_UNCONFIRMED',
    message: `the provider could not confirm whether the create call bought a prediction (${reason}); nothing more is bought for this job`,
  });
}

/**
 * When any purchase of this attempt is terminal and its final webhook's retries are over: by the
 * Cancel-After that create call sent, never by current config, which a deploy may have lowered.
 */
function evidenceDeadline(deps: StagingDeps, attempt: Pick<AttemptRow, 'creatingAt' | 'createdAt' | 'cancelAfterSeconds'>): number {
  const sentAt = (attempt.creatingAt ?? attempt.createdAt).getTime();
  const cancelAfterSeconds = attempt.cancelAfterSeconds ?? deps.settings.cancelAfterSeconds;
  return sentAt + cancelAfterSeconds * 1000 + deps.settings.timings.finalWebhookWindowMs;
}

/** The input of a create call for this job, with the image URL given. */
function predictionInputFor(deps: StagingDeps, job: StagedJobRow, imageUrl: string): PredictionInput {
  const staging = job.staging;
  const userId = staging.requestedByUserId ?? job.requestedByUserId ?? 'unknown-user';
  return {
    prompt: staging.prompt,
    input_images: [imageUrl],
    aspect_ratio: staging.aspectRatio,
    quality: staging.quality,
    output_format: staging.outputFormat,
    output_compression: staging.outputCompression,
    user_id: hashUserId(userId, deps.settings.userHashSecret),
  };
}

async function createPrediction(
  deps: StagingDeps,
  run: StagingRun,
  job: StagedJobRow,
  attempt: AttemptRow,
  webhook: string,
): Promise<StepResult> {
  const original = job.staging.original;
  if (original === null || (await deps.storage.headObject(original.objectKey)) === null) {
    // Nothing was bought for this attempt yet: a reserved one is abandoned, a CREATING one (shown
    // never made, or answered 429) ends like a refused creation.
    return failAttempt(deps, job, attempt, attempt.status === 'RESERVED' ? 'ABANDONED' : 'CREATE_REJECTED', {
      errorCode: 'ORIGINAL_MISSING',
      message: 'the original photo or its stored object no longer exists',
    });
  }
  const tokenId = `${attempt.id}:${randomUUID()}`;
  const slot = await takeStartSlot(deps, run, job, tokenId);
  if (slot !== 'granted') return slot;

  let call: CreateCall;
  try {
    call = await callCreate(deps, run, job, attempt, webhook, original.objectKey, tokenId);
  } catch (error) {
    await deps.limiter.settle(tokenId);
    return handleCreateError(deps, run, job, attempt, error);
  }
  if ('stopped' in call) return call.stopped;
  const { prediction, sentAtMs } = call;
  const receivedAtMs = Date.now();
  await deps.limiter.settle(tokenId);
  // Stamped by the provider while it handled this very call: its clock to well under a second.
  await recordProviderClock(deps.providerClock, deps.logger, offsetFromTimestamp(prediction.created_at, sentAtMs, receivedAtMs), 'created-at', receivedAtMs);
  await deps.boundary('after-create', run.jobId);
  return persistPrediction(deps, run, attempt, prediction.id, 'create', prediction.status);
}

/** A start slot from the paid-start limiter under `tokenId`, or the wait for one. */
async function takeStartSlot(deps: StagingDeps, run: StagingRun, job: StagedJobRow, tokenId: string): Promise<'granted' | RunOutcome> {
  const token = await deps.limiter.tryAcquire({
    tokenId,
    jobId: run.jobId,
    party: fairShareParty(job.staging.requestedByUserId ?? job.requestedByUserId),
  });
  if (!token.granted) {
    if (job.phase !== WAITING_FOR_START_SLOT) await setJobPhase(deps.db, job, WAITING_FOR_START_SLOT);
    return wait(token.retryInMs, 'waiting-for-start-slot');
  }
  if (job.phase === WAITING_FOR_START_SLOT) await setJobPhase(deps.db, job, null);
  return 'granted';
}

/** The provider's answer to the create call, or the step result that stopped it being made. */
type CreateCall = { prediction: Prediction; sentAtMs: number } | { stopped: StepResult };

/**
 * The purchase: the last lock fence, the attempt marked CREATING (within the daily cap) with the
 * exact input and callback URL sent, then the create call. Throws what the lock check, storage
 * and provider throw; the caller gives the start slot back then.
 */
async function callCreate(
  deps: StagingDeps,
  run: StagingRun,
  job: StagedJobRow,
  attempt: AttemptRow,
  webhook: string,
  originalObjectKey: string,
  tokenId: string,
): Promise<CreateCall> {
  const staging = job.staging;
  // Last fence before money: a run that outlived its job lock must not buy, and must leave the
  // attempt as it was (RESERVED still means "never sent").
  await run.lock.assertHeld();
  const input = predictionInputFor(
    deps,
    job,
    await deps.storage.presignGetUrl(originalObjectKey, deps.settings.timings.presignExpiresSeconds),
  );
  const cost = deps.settings.costMicrousd[staging.quality];
  const creatingAt = new Date();
  const marked = await markCreatingWithinCap(deps, run, job, attempt.id, creatingAt, (db) =>
    markAttemptCreating(db, attempt.id, {
      creatingAt,
      inputFingerprint: fingerprintPredictionInput(input),
      webhookUrl: webhook,
      cancelAfterSeconds: deps.settings.cancelAfterSeconds,
      errorCode: null,
      errorMessage: null,
      ...(cost === undefined
        ? {}
        : { costMicrousd: cost, costKind: 'estimate', pricingVersion: deps.settings.pricingVersion ?? null }),
    }),
  );
  if (marked !== 'marked') {
    await deps.limiter.settle(tokenId);
    return { stopped: marked };
  }
  await deps.boundary('before-create', run.jobId);
  const sentAtMs = Date.now();
  const pending = deps.provider.createPrediction({
    model: staging.providerModel,
    webhook,
    // `start` reaches the attempt's own URL with the prediction ID, so a receipt ties the two
    // even when the create response is lost.
    webhookEventsFilter: ['start', 'completed'],
    cancelAfterSeconds: deps.settings.cancelAfterSeconds,
    input,
  });
  void deps.boundary('during-create', run.jobId);
  return { prediction: await pending, sentAtMs };
}

async function handleCreateError(
  deps: StagingDeps,
  run: StagingRun,
  job: ReadJob,
  attempt: AttemptRow,
  error: unknown,
): Promise<StepResult> {
  if (!(error instanceof ProviderError)) throw error;
  const log = { jobId: run.jobId, attemptId: attempt.id, kind: error.kind, status: error.status };
  // Recorded on the attempt only while nothing has tied it to a prediction yet.
  const noteError = (errorCode: StagingErrorCode) => noteCreateError(deps.db, attempt.id, { errorCode, errorMessage: error.message });
  switch (error.kind) {
    case 'throttled': {
      // A 429 bought nothing: mark it so the next delivery may call create again without waiting
      // out the recovery grace, and back off without ending the attempt.
      await noteError('PROVIDER_THROTTLED');
      const delayMs = backoffDelayMs({
        attempt: Math.min(run.throttleCount, 10),
        baseMs: deps.settings.timings.throttleBaseMs,
        maxMs: MAX_THROTTLE_BACKOFF_MS,
        ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
      });
      deps.logger.warn({ ...log, delayMs }, 'provider throttled prediction creation; backing off');
      return wait(Math.max(delayMs, deps.settings.timings.throttleBaseMs / 2), 'provider-throttled', {
        throttleCount: run.throttleCount + 1,
      });
    }
    case 'auth':
      return failAttempt(deps, job, attempt, 'CREATE_REJECTED', failureOf('PROVIDER_AUTH', error));
    case 'invalid':
    case 'not_found':
      return failAttempt(deps, job, attempt, 'CREATE_REJECTED', failureOf('PROVIDER_REJECTED_INPUT', error));
    case 'server':
    case 'network':
      // Ambiguous: the provider may have created (and will bill) the prediction. Recovery looks
      // for it before anything else happens to this attempt.
      deps.logger.warn(log, 'prediction creation failed in transport; recovering before any new purchase');
      await noteError('PROVIDER_UNAVAILABLE');
      // The `start` callback of a purchase that did happen is sent as the response is, and its
      // receipt wakes the job; the provider's list (paged API calls) is the fallback. Looking at
      // once would race the callback and scan the list for a purchase a receipt ties to the
      // attempt a moment later, so recovery starts after one recovery poll.
      return wait(deps.settings.timings.recoveryPollMs, 'recovering-prediction');
  }
}

export type ExistingPrediction =
  | { kind: 'found'; id: string; status: string | null; source: 'webhook_receipt' | 'provider_list' }
  | { kind: 'absent'; scanned: number }
  | { kind: 'undecidable'; reason: string }
  | { kind: 'throttled'; retryAfterSeconds: number | undefined };

/** What the receipts and the provider's list say about the purchase of a CREATING attempt. */
export async function findExistingPrediction(deps: StagingDeps, job: StagingJobRow, attempt: AttemptRow): Promise<ExistingPrediction> {
  const receipt = await deps.db.aiProviderWebhookReceipt.findFirst({
    where: { providerAttemptId: attempt.id },
    orderBy: { receivedAt: 'asc' },
    select: { providerPredictionId: true, providerStatus: true },
  });
  if (receipt !== null)
    return { kind: 'found', id: receipt.providerPredictionId, status: receipt.providerStatus, source: 'webhook_receipt' };
  // An attempt marked CREATING by a release before fingerprints has nothing to match.
  if (attempt.inputFingerprint === null || attempt.creatingAt === null || job.staging === null)
    return { kind: 'undecidable', reason: 'no input fingerprint was persisted for the attempt' };
  // The provider stamps `created_at` on its own clock: the span around our creatingAt widens by
  // how far off that clock was last measured.
  const clockSkewMs = recoveryAllowanceMs(await deps.providerClock.read());
  try {
    const result = await searchPredictionByInput(deps.provider, {
      model: job.staging.providerModel,
      inputFingerprint: attempt.inputFingerprint,
      webhook: attempt.webhookUrl,
      sentAt: attempt.creatingAt,
      clockSkewMs,
      isHeldElsewhere: (predictionId) => isPredictionHeldByOtherAttempt(deps.db, predictionId, attempt.id),
      onRefusedNext: (origin) =>
        deps.captureAlert({
          message: 'provider list gave a next link off the API origin; read on by time instead',
          level: 'warning',
          tags: { jobId: job.id, attemptId: attempt.id },
          extra: { origin },
        }),
    });
    if (result.kind === 'found') {
      return { kind: 'found', id: result.prediction.id, status: result.prediction.status, source: 'provider_list' };
    }
    return result;
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    deps.logger.warn(
      { attemptId: attempt.id, kind: error.kind, err: error },
      'provider prediction list unavailable during recovery',
    );
    if (error.kind === 'throttled') return { kind: 'throttled', retryAfterSeconds: error.retryAfterSeconds };
    return { kind: 'undecidable', reason: `the prediction list was unavailable (${error.kind})` };
  }
}

export async function persistPrediction(
  deps: StagingDeps,
  run: StagingRun,
  attempt: Pick<AttemptRow, 'id' | 'attemptNumber'>,
  predictionId: string,
  source: 'create' | 'webhook_receipt' | 'provider_list',
  providerStatus: string | null,
): Promise<StepResult> {
  const persisted = await moveAttempt(
    deps.db,
    attempt.id,
    'PREDICTION_PERSISTED',
    {
      providerPredictionId: predictionId,
      predictionCreatedAt: new Date(),
      providerStatus,
      errorCode: null,
      errorMessage: null,
    },
    // The webhook receiver may have filled the ID already; any other ID would be a second purchase.
    { OR: [{ providerPredictionId: null }, { providerPredictionId: predictionId }] },
  );
  if (persisted) {
    deps.stagingLog('prediction_created', run.jobId, {
      attemptId: attempt.id,
      attemptNumber: attempt.attemptNumber,
      predictionId,
      source,
    });
  }
  return 'continue';
}
