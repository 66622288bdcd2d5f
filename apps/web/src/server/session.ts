import 'server-only';
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { SESSION_COOKIE_NAME } from '@staging/services/auth/cookies';
import { resolveSession, type ResolvedSession, type SessionUser } from '@staging/services/auth/sessions';
import { safeNextPath } from '@staging/domain/safe-next-path';
import { getWebDeps } from './deps';
import { REQUEST_PATH_HEADER } from './request-path';

/**
 * The session of this request, or null (no cookie, unknown or expired session). Read once per
 * request: the language of the page, the agent layout and a page that needs the user all ask.
 */
export const getCurrentSession = cache(async (): Promise<ResolvedSession | null> => {
  const token = (await cookies()).get(SESSION_COOKIE_NAME)?.value;
  if (token === undefined || token === '') return null;
  return resolveSession(getWebDeps().db, token, new Date());
});

/** The signed-in user of this request, or null. */
export async function getCurrentUser(): Promise<SessionUser | null> {
  return (await getCurrentSession())?.user ?? null;
}

/**
 * The signed-in user, or a redirect to sign-in that comes back to the current page. The proxy
 * already redirects requests without a cookie; this catches expired and revoked sessions.
 */
export async function requireUser(): Promise<SessionUser> {
  const user = await getCurrentUser();
  if (user !== null) return user;
  const path = safeNextPath((await headers()).get(REQUEST_PATH_HEADER));
  redirect(`/sign-in?next=${encodeURIComponent(path)}`);
}
