import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { AppError, ErrorCode } from '@staging/domain/errors';
import { consumeRequestLimit } from '@staging/http-edge/rate-limit';
import { API_READ_LIMITS, requestLimitOf } from '@staging/http-edge/request-limits';
import type { ApiReadRoute } from '@staging/http-edge/request-limits';
import type { ResolvedSession } from '@staging/services/auth/sessions';
import type { TrpcDeps } from '@staging/trpc/context';
import type { ApiDeps } from '../api-deps';
import { findRequestSession } from '../auth/request-session';
import { requestSourceOf } from './request-source';

/**
 * The client's address per TRUSTED_PROXY_HOPS (request-source.ts): the one place the api reads it
 * for a limit (sign-in limits, read limits, and the tRPC procedures it serves).
 */
export function clientAddressOf(req: IncomingMessage, trustedProxyHops: number): string {
  return requestSourceOf(req, trustedProxyHops).clientIp ?? 'unknown';
}

// Which route each limiter guards, so a test can check that every GET route carries its own.
const guardedRoutes = new WeakMap<object, ApiReadRoute>();
const sessions = new WeakMap<IncomingMessage, ResolvedSession>();

/** The route a handler built by {@link createReadLimit} limits, if it is one. */
export function readLimitRouteOf(handler: unknown): ApiReadRoute | undefined {
  return typeof handler === 'function' ? guardedRoutes.get(handler) : undefined;
}

/** The session the read limit of a `user` route resolved for this request. */
export function limitedSession(req: IncomingMessage): ResolvedSession {
  const session = sessions.get(req);
  if (session === undefined) throw new Error('limitedSession on a route without a per-user read limit');
  return session;
}

/**
 * The read limit of a route, as middleware placed before its handler. Typed for string route
 * parameters so the routes' own handlers keep them.
 */
export type ReadLimit = (route: ApiReadRoute) => RequestHandler<Record<string, string>>;

/**
 * Middleware factory for the GET routes that read data: each takes a point of its entry in the
 * request-limit table (`@staging/http-edge/request-limits`). `address` routes count per client
 * address; `user` routes first resolve the session (401 without one), count per user and keep the
 * session for the handler ({@link limitedSession}), so it is read once. Over the limit: 429
 * TOO_MANY_REQUESTS with Retry-After, through the error middleware.
 */
export function createReadLimit(deps: ApiDeps, trpcDeps: TrpcDeps): ReadLimit {
  return (route) => {
    const limit = requestLimitOf(API_READ_LIMITS[route], route, deps.requestLimitOverrides);
    const handler: RequestHandler<Record<string, string>> = async (req, _res, next) => {
      let userId: string | null = null;
      if (limit.per === 'user') {
        const session = await findRequestSession(deps, req);
        if (session === null) throw new AppError(ErrorCode.UNAUTHORIZED, 'Sign in to continue');
        sessions.set(req, session);
        userId = session.user.id;
      }
      await consumeRequestLimit(trpcDeps, { bucket: 'api', name: route, limit, caller: { userId, address: clientAddressOf(req, deps.config.trustedProxyHops) } });
      next();
    };
    guardedRoutes.set(handler, route);
    return handler;
  };
}
