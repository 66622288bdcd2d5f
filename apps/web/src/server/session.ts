import 'server-only';
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { SESSION_COOKIE_NAME } from '@staging/services/auth/cookies';
import { resolveSession, type SessionUser } from '@staging/services/auth/sessions';
import { safeNextPath } from '@/lib/safe-next-path';
import { getWebDeps } from './deps';
import { REQUEST_PATH_HEADER } from './request-path';

/**
 * The signed-in user of this request, or null (no cookie, unknown or expired session). Read once
 * per request: the agent layout and a page that needs the user (spend) both ask.
 */
export const getCurrentUser = cache(async (): Promise<SessionUser | null> => {
  const token = (await cookies()).get(SESSION_COOKIE_NAME)?.value;
  if (token === undefined || token === '') return null;
  const session = await resolveSession(getWebDeps().db, token, new Date());
  return session?.user ?? null;
});

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
