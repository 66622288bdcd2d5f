import express from 'express';
import type { Request, Response, Router } from 'express';
import { sqlPoolOf } from '@staging/db/client';
import { ErrorCode } from '@staging/domain/errors';
import { verifyWebhook, webhookIdOf, WebhookVerificationError } from '@staging/provider/webhook-signing';
import type { Prediction } from '@staging/provider/provider-client';
import { captureAlert } from '@staging/platform/error-tracker';
import { isWellFormedId } from '@staging/services/images/ids';
import { wakeStagingJob, withQueueTimeout } from '@staging/services/staging/staging-queue';
import type { ApiDeps } from '../api-deps';
import { methodNotAllowed, sendError } from '../http/errors';
import { addToCompletionLine } from '../http/request-logging';
import { createProviderCallbackRecorder } from '../webhooks/record-provider-callback';
import type { ProviderCallbackRecorder } from '../webhooks/record-provider-callback';

export const PROVIDER_WEBHOOK_PATH = '/api/webhooks/provider/staging/:providerAttemptId';

/** A prediction callback is a few KB of JSON; anything far larger is not from the provider. */
const MAX_WEBHOOK_BYTES = 256 * 1024;

/**
 * Provider prediction IDs are short printable tokens. Anything else (even signed) is refused
 * before it reaches the receipts table, whose text columns cannot hold U+0000.
 */
const PREDICTION_ID = /^[\x21-\x7e]{1,200}$/;

/**
 * POST /api/webhooks/provider/staging/:providerAttemptId (docs/system.md 4.1, 5.1). Verify the exact
 * bytes first (signature, timestamp ±5 min) and only then read the database; record the receipt;
 * wake the job; answer 204. Other methods get 405 and no path variant ever redirects.
 */
export function createProviderWebhookRouter(deps: ApiDeps): Router {
  const router = express.Router();
  const recordCallback = createProviderCallbackRecorder(sqlPoolOf(deps.db), deps.logger);
  router.post(
    PROVIDER_WEBHOOK_PATH,
    // Raw bytes whatever the Content-Type: the HMAC covers the body exactly as sent.
    express.raw({ type: () => true, limit: MAX_WEBHOOK_BYTES }),
    (req, res) => handleCallback(deps, recordCallback, req, res),
  );
  router.all(PROVIDER_WEBHOOK_PATH, methodNotAllowed(['POST']));
  return router;
}

async function handleCallback(deps: ApiDeps, recordCallback: ProviderCallbackRecorder, req: Request, res: Response): Promise<void> {
  const rawBody: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  let prediction: Prediction;
  try {
    prediction = verifyWebhook({ secret: deps.config.webhookSigningSecret, rawBody, headers: req.headers });
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    if (error.reason === 'invalid_payload') {
      // Signed by the provider but not a prediction: nothing to retry into shape.
      req.log.warn({ event: 'provider_webhook.rejected', reason: error.reason }, 'provider_webhook.rejected');
      sendError(res, 400, { code: ErrorCode.BAD_REQUEST, message: 'Webhook body is not a prediction' });
      return;
    }
    if (error.reason === 'invalid_secret') throw error;
    req.log.warn({ event: 'provider_webhook.rejected', reason: error.reason }, 'provider_webhook.rejected');
    sendError(res, 401, { code: ErrorCode.INVALID_SIGNATURE, message: 'Webhook signature could not be verified' });
    return;
  }

  if (!PREDICTION_ID.test(prediction.id)) {
    req.log.warn({ event: 'provider_webhook.rejected', reason: 'invalid_prediction_id' }, 'provider_webhook.rejected');
    sendError(res, 400, { code: ErrorCode.BAD_REQUEST, message: 'Webhook body is not a prediction' });
    return;
  }
  const providerAttemptId = req.params['providerAttemptId'];
  const webhookId = webhookIdOf(req.headers);
  const timestamp = Number(req.get('webhook-timestamp'));
  if (!isWellFormedId(providerAttemptId) || webhookId === undefined) {
    sendError(res, 404, { code: ErrorCode.NOT_FOUND, message: 'Unknown provider attempt' });
    return;
  }
  const outcome = await recordCallback({
    providerAttemptId,
    webhookId,
    webhookTimestamp: new Date(timestamp * 1000),
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
      req.log.warn({ ...logFields, outcome: outcome.kind }, 'provider_webhook.unknown_attempt');
      sendError(res, 404, { code: ErrorCode.NOT_FOUND, message: 'Unknown provider attempt' });
      return;
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
      req.log.warn({ ...logFields, jobId: outcome.aiJobId, duplicate: outcome.duplicate }, 'provider_webhook.prediction_mismatch');
      sendError(res, 409, { code: ErrorCode.CONFLICT, message: 'Prediction does not belong to this attempt' });
      return;
    case 'matched': {
      let wake: string = 'skipped-terminal';
      if (outcome.jobOpen) {
        try {
          wake = await withQueueTimeout(wakeStagingJob(deps.stagingQueue, outcome.aiJobId), 'wake');
        } catch (error) {
          // The receipt is committed and the worker polls the provider as a fallback, so the
          // callback is still acknowledged; a retry storm would not reach Redis either.
          wake = 'failed';
          req.log.warn({ ...logFields, jobId: outcome.aiJobId, err: error }, 'provider_webhook.wake_failed');
        }
      }
      addToCompletionLine(res, {
        ...logFields,
        jobId: outcome.aiJobId,
        duplicate: outcome.duplicate,
        filledPredictionId: outcome.filledPredictionId,
        wake,
      });
      res.status(204).end();
      return;
    }
  }
}
