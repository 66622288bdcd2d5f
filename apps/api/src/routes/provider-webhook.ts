import express from 'express';
import type { Router } from 'express';
import { STAGING_WEBHOOK_PATH_PREFIX } from '@staging/provider/webhook-url';
import type { ApiDeps } from '../api-deps';
import { methodNotAllowed, sendError } from '../http/errors';
import { addToCompletionLine } from '../http/request-logging';
import { answerProviderCallback, MAX_WEBHOOK_BYTES } from '../webhooks/answer-provider-callback';
import type { ProviderCallbackRecorder } from '../webhooks/record-provider-callback';

export const PROVIDER_WEBHOOK_PATH = `${STAGING_WEBHOOK_PATH_PREFIX}:providerAttemptId`;

/**
 * POST /api/webhooks/provider/staging/:providerAttemptId through Express (docs/system.md 4.1,
 * 5.1). Plain callbacks are answered before Express by the direct path (create-server.ts); this
 * route takes the rest (a compressed or chunked body, a trailing slash, an escaped id) with the
 * same answer. Other methods get 405 and no path variant ever redirects.
 */
export function createProviderWebhookRouter(deps: ApiDeps, recordCallback: ProviderCallbackRecorder): Router {
  const router = express.Router();
  router.post(
    PROVIDER_WEBHOOK_PATH,
    // Raw bytes whatever the Content-Type: the HMAC covers the body exactly as sent.
    express.raw({ type: () => true, limit: MAX_WEBHOOK_BYTES }),
    async (req, res) => {
      const answer = await answerProviderCallback(deps, recordCallback, {
        providerAttemptId: req.params['providerAttemptId'],
        headers: req.headers,
        rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
        log: req.log,
      });
      if (answer.status !== 204) return sendError(res, answer.status, answer.error);
      addToCompletionLine(res, answer.completionFields);
      res.status(204).end();
    },
  );
  router.all(PROVIDER_WEBHOOK_PATH, methodNotAllowed(['POST']));
  return router;
}
