/**
 * A callback the plain ±5-minute window refused for its timestamp is checked once more with the
 * window placed on the provider's clock as the worker last measured it (docs/decisions/provider.md
 * "The provider's clock"). If it is still refused, the log line says how far its timestamp and the
 * measured clock are from ours, and a correctly signed one raises the alert: once per namespace
 * per few minutes, so a storm of retried callbacks does not flood the tracker.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { webhookTimestampWindow } from '@staging/domain/clock-offset';
import { captureAlert } from '@staging/platform/error-tracker';
import { verifyWebhook, WebhookVerificationError } from '@staging/provider/webhook-signing';
import type { WebhookVerificationFailure } from '@staging/provider/webhook-signing';
import type { Prediction } from '@staging/provider/provider-wire';
import { createProviderClock } from '@staging/services/staging/provider-clock';
import type { ApiDeps } from '../api-deps';
import type { ProviderCallbackRequest } from './answer-provider-callback';

/** True when the only thing wrong may be the provider's clock. */
export function isTimestampRefusal(error: WebhookVerificationError): boolean {
  return error.reason === 'timestamp_too_old' || error.reason === 'timestamp_too_new';
}

function signedAtAnyTime(secret: string, rawBody: Buffer, headers: IncomingHttpHeaders): boolean {
  try {
    verifyWebhook({ secret, rawBody, headers, providerClock: { offsetMs: 0, toleranceMs: Number.POSITIVE_INFINITY } });
    return true;
  } catch {
    return false;
  }
}

/** The prediction when the callback is fresh on the provider's measured clock; else why it is refused (logged, alerted). */
export async function verifyOnMeasuredProviderClock(
  deps: Pick<ApiDeps, 'config' | 'redis'>,
  request: ProviderCallbackRequest,
  refusal: WebhookVerificationError,
): Promise<Prediction | WebhookVerificationFailure> {
  const { headers, rawBody, log } = request;
  const secret = deps.config.webhookSigningSecret;
  const clock = createProviderClock(deps.redis, deps.config.queueSuffix);
  let reason: WebhookVerificationFailure = refusal.reason;
  let measured = null;
  try {
    measured = await clock.read();
  } catch (error) {
    log.warn({ event: 'provider_webhook.clock_unreadable', err: error }, 'provider_webhook.clock_unreadable');
  }
  const window = webhookTimestampWindow(measured);
  if (window !== null) {
    try {
      return verifyWebhook({ secret, rawBody, headers, providerClock: window });
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      reason = error.reason;
    }
  }
  const clockFields = {
    timestampOffsetMs: Number(headers['webhook-timestamp']) * 1000 - Date.now(),
    measuredOffsetMs: measured?.offsetMs ?? null,
    measuredUncertaintyMs: measured?.uncertaintyMs ?? null,
    measuredAt: measured === null ? null : new Date(measured.measuredAtMs).toISOString(),
  };
  log.warn({ event: 'provider_webhook.rejected', reason, ...clockFields }, 'provider_webhook.rejected');
  if (reason === 'timestamp_too_old' || reason === 'timestamp_too_new') {
    // Only a callback the provider really signed says its clock is off; anyone can send an old timestamp.
    if (signedAtAnyTime(secret, rawBody, headers) && (await clock.claimRefusedCallbackAlert().catch(() => false))) {
      captureAlert({
        message: 'provider callback refused for its timestamp: the provider clock is off ours by more than the window allows',
        level: 'warning',
        tags: { errorCode: 'WEBHOOK_CLOCK_SKEW', attemptId: request.providerAttemptId },
        extra: clockFields,
      });
    }
  }
  return reason;
}
