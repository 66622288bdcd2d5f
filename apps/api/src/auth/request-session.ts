import type { Request } from 'express';
import { AppError, ErrorCode } from '@staging/domain/errors';
import type { Actor } from '@staging/services/access/property-access';
import { parseCookies, SESSION_COOKIE_NAME } from '@staging/services/auth/cookies';
import { resolveSession } from '@staging/services/auth/sessions';
import type { ResolvedSession } from '@staging/services/auth/sessions';
import type { ApiDeps } from '../api-deps';

export function sessionTokenOf(req: Request): string | undefined {
  return parseCookies(req.headers.cookie).get(SESSION_COOKIE_NAME);
}

/** The session of the request's `sid` cookie, or null (absent, unknown or expired). */
export async function findRequestSession(deps: ApiDeps, req: Request): Promise<ResolvedSession | null> {
  const token = sessionTokenOf(req);
  if (token === undefined) return null;
  return resolveSession(deps.db, token, deps.clock.now());
}

/** Who acts in a session, for authorization. */
export function actorOf(session: ResolvedSession): Actor {
  return { id: session.user.id, role: session.user.role };
}

/** The acting user of a cookie-authenticated route; UNAUTHORIZED without a valid session. */
export async function requireActor(deps: ApiDeps, req: Request): Promise<Actor> {
  const session = await findRequestSession(deps, req);
  if (session === null) throw new AppError(ErrorCode.UNAUTHORIZED, 'Sign in to continue');
  return actorOf(session);
}

/** Secure cookies everywhere but local development and tests, which run over plain http. */
export function usesSecureCookies(deps: ApiDeps): boolean {
  return deps.config.nodeEnv === 'production';
}
