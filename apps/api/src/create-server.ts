import type { Server } from 'node:http';
import { sqlPoolOf } from '@staging/db/client';
import { createServiceHttpServer } from '@staging/platform/http-client-errors';
import type { ApiDeps } from './api-deps';
import { createApp } from './create-app';
import { createDirectProviderWebhook } from './webhooks/direct-provider-webhook';
import { createProviderCallbackRecorder } from './webhooks/record-provider-callback';

/**
 * The api's HTTP server: the provider's plain callbacks are answered before Express (see
 * direct-provider-webhook.ts), everything else by the Express app. Both share one callback
 * recorder, so their receipts share its statements.
 *
 * Idle keep-alive connections outlive a load balancer's idle timeout, so the balancer closes them
 * first and never sends a request on a socket Node is closing. The same holds for a keep-alive
 * client that honours the `Keep-Alive: timeout` header, fetch included: with Node's default of
 * 5 s, a request that went out just as Node closed the idle socket was reset (seen in the api
 * tests on a starved machine).
 */
export function createApiServer(deps: ApiDeps): Server {
  const recordCallback = createProviderCallbackRecorder(sqlPoolOf(deps.db), deps.logger);
  const app = createApp(deps, recordCallback);
  const answerDirectly = createDirectProviderWebhook(deps, recordCallback);
  const server = createServiceHttpServer((req, res) => {
    if (!answerDirectly(req, res)) app(req, res);
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}
