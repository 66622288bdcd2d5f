import { login } from '@staging/services/auth/login';
import { serializeSessionCookie } from '@staging/services/auth/cookies';
import { isAppError } from '@staging/domain/errors';
import { safeNextPath } from '@/lib/safe-next-path';
import { getWebDeps } from '@/server/deps';
import { crossSiteRefused, isHttpsRequest, isSameOriginRequest } from '@/server/same-origin';

export const dynamic = 'force-dynamic';

function redirectTo(path: string, extraHeaders: Record<string, string> = {}): Response {
  // 303 turns the POST into a GET of the target, so a reload never resubmits the password.
  return new Response(null, { status: 303, headers: { location: path, 'cache-control': 'no-store', ...extraHeaders } });
}

/**
 * Form post of the sign-in page. Works without JavaScript: success sets the shared `sid` cookie
 * and goes back to the page the visitor came from; failure returns to the form with an error.
 */
export async function POST(request: Request): Promise<Response> {
  if (!isSameOriginRequest(request)) return crossSiteRefused();
  const form = await request.formData().catch(() => new FormData());
  const email = String(form.get('email') ?? '');
  const password = String(form.get('password') ?? '');
  const next = safeNextPath(String(form.get('next') ?? ''));
  const { db, logger } = getWebDeps();
  try {
    const { user, session } = await login(db, { email, password }, new Date());
    logger.info({ event: 'web.sign_in', userId: user.id }, 'signed in');
    return redirectTo(next, {
      'set-cookie': serializeSessionCookie(session.token, { expiresAt: session.expiresAt, secure: isHttpsRequest(request) }),
    });
  } catch (error) {
    const reason = isAppError(error) && error.code === 'UNAUTHORIZED' ? 'invalid' : 'unavailable';
    if (reason === 'unavailable') logger.error({ err: error, event: 'web.sign_in_failed' }, 'sign-in failed');
    const query = new URLSearchParams({ error: reason, next });
    if (email.length <= 320) query.set('email', email);
    return redirectTo(`/sign-in?${query.toString()}`);
  }
}
