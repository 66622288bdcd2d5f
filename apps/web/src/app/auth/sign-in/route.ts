import { login } from '@staging/services/auth/login';
import { parseCookies, serializeSessionCookie } from '@staging/services/auth/cookies';
import { saveUserLocale } from '@staging/services/auth/user-locale';
import { isAppError } from '@staging/domain/errors';
import { isLocale } from '@staging/domain/locale';
import { signInGuarded } from '@staging/trpc/login-guard';
import { LOCALE_COOKIE } from '@/lib/locale';
import { safeNextPath } from '@/lib/safe-next-path';
import { getWebDeps } from '@/server/deps';
import { crossSiteRefused, isSameOriginRequest, requestSourceOf } from '@/server/same-origin';

export const dynamic = 'force-dynamic';

function redirectTo(path: string, cookies: string[] = []): Response {
  // 303 turns the POST into a GET of the target, so a reload never resubmits the password.
  const headers = new Headers({ location: path, 'cache-control': 'no-store' });
  for (const cookie of cookies) headers.append('set-cookie', cookie);
  return new Response(null, { status: 303, headers });
}

/**
 * Form post of the sign-in page. Works without JavaScript: success sets the shared `sid` cookie
 * and goes back to the page the visitor came from; failure returns to the form with an error.
 */
export async function POST(request: Request): Promise<Response> {
  const source = requestSourceOf(request);
  if (!isSameOriginRequest(request, source)) return crossSiteRefused();
  const form = await request.formData().catch(() => new FormData());
  const email = String(form.get('email') ?? '');
  const password = String(form.get('password') ?? '');
  const next = safeNextPath(String(form.get('next') ?? ''));
  const { db, logger, loginGuard } = getWebDeps();
  const attempt = { ip: source.clientIp, email };
  try {
    const { user, session, locale } = await signInGuarded(loginGuard, attempt, () =>
      login(db, { email, password }, new Date()),
    );
    logger.info({ event: 'web.sign_in', userId: user.id }, 'signed in');
    // A language chosen in this browser before signing in (on this very page, say) is the agent's
    // latest choice: it stays, and the account keeps it for browsers where none was made. Without
    // one, the pages follow the account's (src/i18n/request.ts).
    const chosen = parseCookies(request.headers.get('cookie')).get(LOCALE_COOKIE);
    if (isLocale(chosen) && chosen !== locale) await saveUserLocale(db, user.id, chosen);
    return redirectTo(next, [serializeSessionCookie(session.token, { expiresAt: session.expiresAt, secure: source.https })]);
  } catch (error) {
    const known = isAppError(error) ? error : undefined;
    const reason =
      known?.code === 'UNAUTHORIZED' ? 'invalid' : known?.code === 'TOO_MANY_REQUESTS' ? 'throttled' : 'unavailable';
    if (reason === 'unavailable') logger.error({ err: error, event: 'web.sign_in_failed' }, 'sign-in failed');
    const query = new URLSearchParams({ error: reason, next });
    if (known?.retryAfterSeconds !== undefined) query.set('retryAfter', String(known.retryAfterSeconds));
    if (email.length <= 320) query.set('email', email);
    return redirectTo(`/sign-in?${query.toString()}`);
  }
}
