import { cookies } from 'next/headers';
import { SESSION_COOKIE_NAME, serializeClearedSessionCookie } from '@staging/services/auth/cookies';
import { revokeSession } from '@staging/services/auth/sessions';
import { serializeLocaleCookie } from '@/lib/locale';
import { getWebDeps } from '@/server/deps';
import { crossSiteRefused, isHttpsRequest, isSameOriginRequest } from '@/server/same-origin';

export const dynamic = 'force-dynamic';

/**
 * Revokes the session row (so the api stops accepting it too) and clears the cookie. The language
 * cookie goes too: the agent's pick is kept in their account, and the next person on this
 * browser starts from their own Accept-Language.
 */
export async function POST(request: Request): Promise<Response> {
  if (!isSameOriginRequest(request)) return crossSiteRefused();
  const token = (await cookies()).get(SESSION_COOKIE_NAME)?.value;
  if (token) await revokeSession(getWebDeps().db, token);
  const secure = isHttpsRequest(request);
  const headers = new Headers({ location: '/sign-in', 'cache-control': 'no-store' });
  headers.append('set-cookie', serializeClearedSessionCookie({ secure }));
  headers.append('set-cookie', serializeLocaleCookie(null, { secure }));
  return new Response(null, { status: 303, headers });
}
