import { cookies } from 'next/headers';
import { SESSION_COOKIE_NAME, serializeClearedSessionCookie } from '@staging/services/auth/cookies';
import { revokeSession } from '@staging/services/auth/sessions';
import { getWebDeps } from '@/server/deps';
import { crossSiteRefused, isHttpsRequest, isSameOriginRequest } from '@/server/same-origin';

export const dynamic = 'force-dynamic';

/** Revokes the session row (so the api stops accepting it too) and clears the cookie. */
export async function POST(request: Request): Promise<Response> {
  if (!isSameOriginRequest(request)) return crossSiteRefused();
  const token = (await cookies()).get(SESSION_COOKIE_NAME)?.value;
  if (token) await revokeSession(getWebDeps().db, token);
  return new Response(null, {
    status: 303,
    headers: {
      location: '/sign-in',
      'cache-control': 'no-store',
      'set-cookie': serializeClearedSessionCookie({ secure: isHttpsRequest(request) }),
    },
  });
}
