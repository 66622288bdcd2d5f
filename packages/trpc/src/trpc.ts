import { initTRPC } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { AppError, ErrorCode, httpStatusOf } from '@staging/domain/errors';
import type { ErrorReason, FieldIssue } from '@staging/domain/errors';
import { isCrossSiteCall } from '@staging/http-edge/origin-check';
import { consumeRequestLimit } from '@staging/http-edge/rate-limit';
import { PROCEDURE_LIMITS, requestLimitOf } from '@staging/http-edge/request-limits';
import type { ProcedurePath } from '@staging/http-edge/request-limits';
import type { Actor } from '@staging/services/access/property-access';
import { appErrorOf } from '@staging/services/app-error-of';
import type { TrpcContext } from './context';
import { appCodeOfTrpcCode, toTrpcError, TRPC_CODE_OF, validationIssues } from './error-mapping';

/** What every error response carries in `error.data` besides tRPC's own code/httpStatus/path. */
export interface AppErrorData {
  /** Our stable code (`@staging/domain/errors`); clients localize by it. */
  appCode: ErrorCode;
  /** A finer reason under `appCode`, for clients that word it apart (an unreadable image…). */
  reason?: ErrorReason;
  /** Field paths, codes and messages of invalid input (zod paths) or of a conflict. */
  issues?: FieldIssue[];
  /**
   * With TOO_MANY_REQUESTS: seconds until the window frees a request; with TEMPORARILY_UNAVAILABLE:
   * seconds to wait before asking again. Also sent as `Retry-After`.
   */
  retryAfterSeconds?: number;
  /** With CONFLICT from inventory.deleteUnit: how many items the unit holds now. */
  itemCount?: number;
}

const INTERNAL_MESSAGE = 'Internal server error';

/**
 * Live streams (subscriptions over Server-Sent Events). A comment line every 15 s keeps proxies and
 * load balancers, which commonly cut a connection idle for 60 s, from closing the stream; a client
 * that hears nothing for 40 s takes the stream for dead and reconnects. A stream lives at most
 * 10 minutes, so the session and its user are checked again at least that often.
 */
export const LIVE_STREAM_TIMING = { pingMs: 15_000, reconnectAfterSilenceMs: 40_000, maxDurationMs: 10 * 60_000 } as const;

const t = initTRPC.context<TrpcContext>().create({
  // No transformer: plain JSON on the wire, dates as ISO 8601 strings, so a client in any
  // language can call the API (native apps rely on it).
  // isDev false everywhere: stacks never go to clients (they name files and dependencies); the
  // server logs them instead (onError in http.ts).
  isDev: false,
  sse: {
    ping: { enabled: true, intervalMs: LIVE_STREAM_TIMING.pingMs },
    client: { reconnectAfterInactivityMs: LIVE_STREAM_TIMING.reconnectAfterSilenceMs },
    maxDurationMs: LIVE_STREAM_TIMING.maxDurationMs,
  },
  errorFormatter({ shape, error }) {
    const appError = appErrorOf(error.cause);
    if (appError !== undefined) {
      // Normally the appErrors middleware already gave the TRPCError the right code; errors raised
      // outside a procedure (e.g. the session lookup while building the context) arrive here unmapped.
      const code = TRPC_CODE_OF[appError.code];
      const data: typeof shape.data & AppErrorData = {
        ...shape.data,
        code,
        httpStatus: httpStatusOf[appError.code],
        appCode: appError.code,
        ...(appError.reason === undefined ? {} : { reason: appError.reason }),
        ...(appError.issues === undefined ? {} : { issues: appError.issues }),
        ...(appError.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: appError.retryAfterSeconds }),
        ...(appError.itemCount === undefined ? {} : { itemCount: appError.itemCount }),
      };
      return {
        ...shape,
        code: TRPC_ERROR_CODES_BY_KEY[code],
        // AppError messages are written for clients, except INTERNAL ones.
        message: appError.code === ErrorCode.INTERNAL ? INTERNAL_MESSAGE : appError.message,
        data,
      };
    }
    const appCode = appCodeOfTrpcCode(error.code);
    const issues = error.code === 'BAD_REQUEST' ? validationIssues(error.cause) : undefined;
    const data: typeof shape.data & AppErrorData = {
      ...shape.data,
      appCode,
      ...(issues === undefined ? {} : { issues }),
    };
    let message = shape.message;
    // Unknown errors may carry SQL, keys or paths: clients get a fixed text.
    if (appCode === ErrorCode.INTERNAL) message = INTERNAL_MESSAGE;
    // A validation error's own message is the JSON of its issues, already in data.issues.
    else if (issues !== undefined) message = 'Invalid input';
    // JSON.parse messages quote the client's body back; a fixed text says the same.
    else if (error.cause instanceof SyntaxError) message = 'Malformed JSON input';
    return { ...shape, message, data };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Turns an AppError thrown anywhere below (or a database that cannot serve for now, see
 * `appErrorOf`) into a TRPCError with the matching code, so HTTP statuses and `createCaller`
 * users see NOT_FOUND, CONFLICT… instead of INTERNAL_SERVER_ERROR.
 */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  const appError = result.ok ? undefined : appErrorOf(result.error.cause);
  if (appError !== undefined) throw toTrpcError(appError);
  return result;
});

/**
 * Mutations a browser sent from another site are refused (`@staging/http-edge/origin-check`), with
 * or without a session, as the api and the web refuse every cross-site POST. So are live streams: a
 * GET, but one that holds a connection and a share of the user's stream limit for as long as the
 * page is open.
 */
const crossSiteGuard = t.middleware(({ ctx, type, next }) => {
  if (type !== 'query' && isCrossSiteCall(ctx.headers, ctx.deps.allowedOrigins, ctx.deps.trustedProxyHops)) {
    throw new AppError(ErrorCode.FORBIDDEN, 'Cross-site request refused');
  }
  return next();
});

function isProcedurePath(path: string): path is ProcedurePath {
  return Object.hasOwn(PROCEDURE_LIMITS, path);
}

/**
 * Every call takes a point of its procedure's entry in the request-limit table, shared through
 * Redis by every api and web instance. Middleware runs per call, so each call of a batch counts.
 * It runs before authentication and input validation: invalid calls count too. Over the limit:
 * TOO_MANY_REQUESTS with retryAfterSeconds.
 */
const requestLimit = t.middleware(async ({ ctx, path, next }) => {
  // A procedure added without an entry fails loudly rather than going unlimited (and a test
  // walking the router finds it first).
  if (!isProcedurePath(path)) throw new Error(`No request limit for procedure ${path}`);
  const dot = path.indexOf('.');
  await consumeRequestLimit(ctx.deps, {
    bucket: path.slice(0, dot),
    name: path.slice(dot + 1),
    limit: requestLimitOf(PROCEDURE_LIMITS[path], path, ctx.deps.requestLimitOverrides),
    caller: { userId: ctx.session?.user.id ?? null, address: ctx.clientAddress },
  });
  return next();
});

export const publicProcedure = t.procedure.use(appErrors).use(crossSiteGuard).use(requestLimit);

/** Requires a session; adds `actor` (who acts, for authorization) to the context. */
export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (ctx.session === null) throw new AppError(ErrorCode.UNAUTHORIZED, 'Sign in to continue');
  const actor: Actor = { id: ctx.session.user.id, role: ctx.session.user.role };
  return next({ ctx: { session: ctx.session, actor } });
});
