import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { internal_exceptionHandler, nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import type { HTTPBaseHandlerOptions } from '@trpc/server/http';
import { ErrorCode } from '@staging/domain/errors';
import { appErrorOf } from '@staging/services/app-error-of';
import { createTrpcContext } from './context';
import type { TrpcDeps } from './context';
import { appRouter } from './root';
import type { AppRouter } from './root';

/** Where both apps mount the router. */
export const TRPC_ENDPOINT = '/api/trpc';

/** Largest request body: a full 500-item bulkCreate with 100-character unit numbers is ~100 KiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Largest batch: each call still counts against its own rate limit. */
export const MAX_BATCH_SIZE = 20;

export interface TrpcHttpOptions {
  /** Path prefix of the router for the fetch handler; default {@link TRPC_ENDPOINT}. */
  endpoint?: string;
  maxBodyBytes?: number;
}

/**
 * Answers are for one user (the session cookie decides which): no cache may keep them. A live
 * stream also says so to a cache that ignores no-store on an event stream (`private`, `Vary:
 * Cookie`), and keeps `no-transform`: without it a compressing proxy (or Next.js' own
 * compression) would hold its events back until a buffer fills.
 */
const PER_USER_HEADERS = { 'cache-control': 'no-store' } as const;
const PER_USER_STREAM_HEADERS = { 'cache-control': 'private, no-store, no-transform', vary: 'Cookie' } as const;

/** Options shared by both handlers: error logging, Retry-After and no caching of answers. */
function sharedOptions(deps: TrpcDeps): HTTPBaseHandlerOptions<AppRouter, unknown> {
  // A subscription refused before its stream opens (too many streams, no session): tRPC would
  // answer 200 and put the error in the stream, and responseMeta is not told about it. onError
  // runs first and keeps it here, by the request's context, for responseMeta to answer with its
  // status and Retry-After instead.
  const refusedStreams = new WeakMap<object, TRPCError>();
  return {
    router: appRouter,
    allowBatching: true,
    maxBatchSize: MAX_BATCH_SIZE,
    onError({ error, path, type, ctx }) {
      if (type === 'subscription' && typeof ctx === 'object' && ctx !== null && !refusedStreams.has(ctx)) refusedStreams.set(ctx, error);
      // Client mistakes are answered, not logged; anything answered with 500, and a database that
      // could not serve (503), is logged with its stack.
      if (error.code === 'INTERNAL_SERVER_ERROR' || appErrorOf(error.cause)?.code === ErrorCode.TEMPORARILY_UNAVAILABLE) {
        deps.logger.error({ err: error.cause ?? error, path, type }, 'trpc procedure failed');
      }
    },
    responseMeta({ errors, type, ctx }) {
      const refused = type === 'subscription' && typeof ctx === 'object' && ctx !== null ? refusedStreams.get(ctx) : undefined;
      const headers: Record<string, string> = { ...(type === 'subscription' ? PER_USER_STREAM_HEADERS : PER_USER_HEADERS) };
      const retryAfter = Math.max(0, ...[...errors, ...(refused === undefined ? [] : [refused])].map((error) => appErrorOf(error.cause)?.retryAfterSeconds ?? 0));
      if (retryAfter > 0) headers['retry-after'] = String(retryAfter);
      return refused === undefined ? { headers } : { headers, status: getHTTPStatusCodeFromError(refused) };
    },
  };
}

/**
 * Counts body bytes and fails the stream past `maxBytes`; Next.js route handlers (unlike Express'
 * body parser or tRPC's Node adapter) put no bound on what a client may send.
 */
function limitBody(req: Request, maxBytes: number): Request {
  if (req.body === null) return req;
  let seen = 0;
  const limited = req.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) controller.error(new TRPCError({ code: 'PAYLOAD_TOO_LARGE' }));
        else controller.enqueue(chunk);
      },
    }),
  );
  // The DOM's RequestInit does not know `duplex` yet; Node's fetch requires it with a stream body.
  const init: RequestInit & { duplex: 'half' } = { body: limited, duplex: 'half' };
  return new Request(req, init);
}

/**
 * Fetch API handler (`Request` → `Response`) serving the router below `endpoint`. apps/web uses it
 * in its route handler: `export const GET = handler, POST = handler`.
 */
export function createTrpcFetchHandler(deps: TrpcDeps, options: TrpcHttpOptions = {}) {
  const endpoint = options.endpoint ?? TRPC_ENDPOINT;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const shared = sharedOptions(deps);
  return async (req: Request): Promise<Response> => {
    const response = await fetchRequestHandler({
      ...shared,
      endpoint,
      req: limitBody(req, maxBodyBytes),
      createContext: ({ req: request }) => createTrpcContext({ deps, headers: request.headers }),
    });
    // This adapter appends responseMeta's headers to tRPC's own instead of replacing them (the Node
    // adapter replaces), so a stream's Cache-Control would say no-cache and no-store at once.
    if (response.headers.get('content-type') === 'text/event-stream') {
      for (const [name, value] of Object.entries(PER_USER_STREAM_HEADERS)) response.headers.set(name, value);
    }
    return response;
  };
}

function toHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    // HTTP/2 pseudo-headers (":path") are not headers.
    if (name.startsWith(':') || value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

/**
 * Node.js (`req`, `res`) handler, for Express (`app.use('/api/trpc', handler)`) or a bare
 * `node:http` server. The procedure path is the last path segment, as in tRPC's own Express
 * adapter, so it works with or without the mount prefix stripped from `req.url`. A body already
 * parsed into `req.body` (express.json) is used as is.
 */
export function createTrpcNodeHandler(
  deps: TrpcDeps,
  options: Omit<TrpcHttpOptions, 'endpoint'> & {
    /** The client address as the host server knows it (Express: `req.ip`); default from X-Forwarded-For. */
    clientAddress?: (req: IncomingMessage) => string;
  } = {},
) {
  const shared = sharedOptions(deps);
  const maxBodySize = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    const handlerOptions = {
      ...shared,
      req,
      res,
      path: pathname.slice(pathname.lastIndexOf('/') + 1),
      maxBodySize,
      createContext: () =>
        createTrpcContext({
          deps,
          headers: toHeaders(req.headers),
          ...(options.clientAddress === undefined ? {} : { clientAddress: options.clientAddress(req) }),
        }),
    };
    // tRPC's event streams send `Connection: keep-alive`, and Node then keeps open a connection its
    // client asked to close (until the keep-alive timeout, 65 s): close it as asked once answered.
    if (/\bclose\b/i.test(req.headers.connection ?? '')) res.once('finish', () => req.socket.end());
    // Same guard as tRPC's Express adapter: anything escaping the handler still gets a JSON answer.
    await nodeHTTPRequestHandler(handlerOptions).catch(internal_exceptionHandler(handlerOptions));
  };
}
