import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { ApiDeps } from './api-deps';
import { createApp } from './create-app';

/**
 * The api's HTTP server. Idle keep-alive connections outlive a load balancer's idle timeout, so
 * the balancer closes them first and never sends a request on a socket Node is closing. The same
 * holds for a keep-alive client that honours the `Keep-Alive: timeout` header, fetch included:
 * with Node's default of 5 s, a request that went out just as Node closed the idle socket was
 * reset (seen in the api tests on a starved machine).
 */
export function createApiServer(deps: ApiDeps): Server {
  const server = createServer(createApp(deps));
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}
