import type { IncomingHttpHeaders } from 'node:http';
import { isWellFormedId } from '@staging/contracts/ids';
import { ErrorCode } from '@staging/domain/errors';
import { verifyWebhook, webhookIdOf, WebhookVerificationError } from '@staging/provider/webhook-signing';
import type { Prediction } from '@staging/provider/provider-wire';
import { captureAlert } from '@staging/platform/error-tracker';
import { wakeStagingJob, withQueueTimeout } from '@staging/services/staging/staging-queue';
import type { ApiDeps } from '../api-deps';
import type { ErrorBody } from '../http/errors';
import { isTimestampRefusal, verifyOnMeasuredProviderClock } from './provider-clock-check';
import type { ProviderCallbackRecorder } from './record-provider-callback';

/** A prediction callback is a few KB of JSON; anything far larger is not from the provider. */
export const MAX_WEBHOOK_BYTES = 256 * 1024;

/**
 * Provider prediction IDs are short printable tokens. Anything else (even signed) is refused
 * before it reaches the receipts table, whose text columns cannot hold U+0000.
 */
const PREDICTION_ID = /^[\x21-\x7e]{1,200}$/;

/** One callback as received, whichever HTTP layer read it. */
export interface ProviderCallbackRequest {
  providerAttemptId: string | undefined;
  headers: IncomingHttpHeaders;
  /** The body's exact bytes: the signature covers them. */
  rawBody: Buffer;
  /** Where rejections and wake failures are logged (the request's logger). */
  log: { warn(fields: Record<string, unknown>, message: string): void };
}

/**
 * What to answer: 204 with the fields for the request's completion line, or an error body. The
 * HTTP layer writes it; everything the answer depends on is decided here.
 */
export type ProviderCallbackAnswer =
  | { status: 204; completionFields: Record<string, unknown> }
  | { status: 400 | 401 | 404 | 409; error: ErrorBody['error'] };

// Each answered from two places: a body that verifies but is no prediction (its payload, or its id),
// and an attempt that is malformed or not ours (before and after the receipt is looked up).
const NOT_A_PREDICTION = { status: 400, error: { code: ErrorCode.BAD_REQUEST, message: 'Webhook body is not a prediction' } } as const;
const UNKNOWN_ATTEMPT = { status: 404, error: { code: ErrorCode.NOT_FOUND, message: 'Unknown provider attempt' } } as const;

/**
 * docs/system.md 4.1, 5.1: verify the exact bytes first (signature, timestamp ±5 min, or ±5 min
 * of the provider's measured clock when ours refused it: provider-clock-check.ts) and only
 * then read the database; record the receipt; wake the job; answer 204. Throws only for what is
 * not the caller's fault (a broken secret, the database down): the HTTP layer answers 5xx and the
 * provider retries.
 */
export async function answerProviderCallback(
  deps: ApiDeps,
  recordCallback: ProviderCallbackRecorder,
  request: ProviderCallbackRequest,
): Promise<ProviderCallbackAnswer> {
  const { headers, log } = request;
  let prediction: Prediction;
  try {
    prediction = verifyWebhook({ secret: deps.config.webhookSigningSecret, rawBody: request.rawBody, headers });
  } catch (error) {
    if (!(error instanceof WebhookVerificationError) || error.reason === 'invalid_secret') throw error;
    // Logged there with the clock offsets; every other refusal here.
    const outcome = isTimestampRefusal(error) ? await verifyOnMeasuredProviderClock(deps, request, error) : error.reason;
    if (typeof outcome === 'string') {
      if (!isTimestampRefusal(error)) log.warn({ event: 'provider_webhook.rejected', reason: outcome }, 'provider_webhook.rejected');
      // Signed by the provider but not a prediction: nothing to retry into shape.
      if (outcome === 'invalid_payload') return NOT_A_PREDICTION;
      return { status: 401, error: { code: ErrorCode.INVALID_SIGNATURE, message: 'Webhook signature could not be verified' } };
    }
    prediction = outcome;
  }

  if (!PREDICTION_ID.test(prediction.id)) {
    log.warn({ event: 'provider_webhook.rejected', reason: 'invalid_prediction_id' }, 'provider_webhook.rejected');
    return NOT_A_PREDICTION;
  }
  const { providerAttemptId } = request;
  const webhookId = webhookIdOf(headers);
  if (providerAttemptId === undefined || !isWellFormedId(providerAttemptId) || webhookId === undefined) {
    return UNKNOWN_ATTEMPT;
  }
  const outcome = await recordCallback({
    providerAttemptId,
    webhookId,
    webhookTimestamp: new Date(Number(headers['webhook-timestamp']) * 1000),
    predictionId: prediction.id,
    predictionStatus: prediction.status,
  });
  const logFields = {
    event: 'provider_webhook.received',
    attemptId: providerAttemptId,
    webhookId,
    predictionId: prediction.id,
    providerStatus: prediction.status,
  };

  switch (outcome.kind) {
    case 'unknown-attempt':
      log.warn({ ...logFields, outcome: outcome.kind }, 'provider_webhook.unknown_attempt');
      return UNKNOWN_ATTEMPT;
    case 'mismatch':
      // A signed callback for a prediction the attempt does not hold may be a second purchase
      // for one attempt: recorded (the receipt is evidence), alerted, and answered 409 so it is
      // visible on the provider's side too. The job is not woken by a prediction it does not own.
      captureAlert({
        message: 'provider webhook prediction does not match the attempt',
        level: 'warning',
        tags: { jobId: outcome.aiJobId, errorCode: 'PREDICTION_MISMATCH', attemptId: providerAttemptId },
        extra: { predictionId: prediction.id, persistedPredictionId: outcome.persistedPredictionId },
      });
      log.warn({ ...logFields, jobId: outcome.aiJobId, duplicate: outcome.duplicate }, 'provider_webhook.prediction_mismatch');
      return { status: 409, error: { code: ErrorCode.CONFLICT, message: 'Prediction does not belong to this attempt' } };
    case 'matched': {
      let wake: string = 'skipped-terminal';
      if (outcome.jobOpen) {
        try {
          wake = await withQueueTimeout(wakeStagingJob(deps.stagingQueue, outcome.aiJobId), 'wake');
        } catch (error) {
          // The receipt is committed and the worker polls the provider as a fallback, so the
          // callback is still acknowledged; a retry storm would not reach Redis either.
          wake = 'failed';
          log.warn({ ...logFields, jobId: outcome.aiJobId, err: error }, 'provider_webhook.wake_failed');
        }
      }
      const completionFields = { ...logFields, jobId: outcome.aiJobId, duplicate: outcome.duplicate, filledPredictionId: outcome.filledPredictionId, wake };
      return { status: 204, completionFields };
    }
  }
}
