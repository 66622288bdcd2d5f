import { parseCookies, SESSION_COOKIE_NAME, serializeClearedSessionCookie } from '@staging/services/auth/cookies';
import { revokeSession } from '@staging/services/auth/sessions';
import { getWebDeps } from '@/server/deps';
import { crossSiteRefused, isHttpsRequest, isSameOriginRequest } from '@/server/same-origin';

export const dynamic = 'force-dynamic';

/**
 * Revokes the session row (so the api stops accepting it too) and clears the cookie. The account's
 * language goes with the session; a language chosen in this browser stays (docs/decisions/web.md
 * "Which language a page is in").
 */
export async function POST(request: Request): Promise<Response> {
  if (!isSameOriginRequest(request)) return crossSiteRefused();
  const token = parseCookies(request.headers.get('cookie')).get(SESSION_COOKIE_NAME);
  if (token) await revokeSession(getWebDeps().db, token);
  const secure = isHttpsRequest(request);
  const headers = new Headers({ location: '/sign-in', 'cache-control': 'no-store' });
  headers.append('set-cookie', serializeClearedSessionCookie({ secure }));
  return new Response(null, { status: 303, headers });
}
