import { login } from '@staging/services/auth/login';
import type { LoginResult } from '@staging/services/auth/login';
import { parseCookies, serializeSessionCookie } from '@staging/services/auth/cookies';
import { saveUserLocale } from '@staging/services/auth/user-locale';
import { isAppError } from '@staging/domain/errors';
import { isLocale } from '@staging/domain/locale';
import { safeNextPath } from '@staging/domain/safe-next-path';
import type { Logger } from '@staging/platform/logger';
import { signInGuarded } from '@staging/http-edge/login-guard';
import { LOCALE_COOKIE } from '@/lib/locale';
import { getWebDeps } from '@/server/deps';
import { crossSiteRefused, isSameOriginRequest, requestSourceOf } from '@/server/same-origin';

export const dynamic = 'force-dynamic';

function redirectTo(path: string, cookies: string[] = []): Response {
  // 303 turns the POST into a GET of the target, so a reload never resubmits the password.
  const headers = new Headers({ location: path, 'cache-control': 'no-store' });
  for (const cookie of cookies) headers.append('set-cookie', cookie);
  return new Response(null, { status: 303, headers });
}

function failedSignIn(error: unknown, context: { email: string; next: string; logger: Logger }): Response {
  const known = isAppError(error) ? error : undefined;
  const reason =
    known?.code === 'UNAUTHORIZED' ? 'invalid' : known?.code === 'TOO_MANY_REQUESTS' ? 'throttled' : 'unavailable';
  if (reason === 'unavailable') context.logger.error({ err: error, event: 'web.sign_in_failed' }, 'sign-in failed');
  const query = new URLSearchParams({ error: reason, next: context.next });
  if (known?.retryAfterSeconds !== undefined) query.set('retryAfter', String(known.retryAfterSeconds));
  if (context.email.length <= 320) query.set('email', context.email);
  return redirectTo(`/sign-in?${query.toString()}`);
}

/**
 * Form post of the sign-in page. Works without JavaScript: success sets the shared `sid` cookie
 * and goes back to the page the visitor came from; failure returns to the form with an error.
 * Once the session exists the answer always carries its cookie: nothing after it may fail the
 * sign-in, or the session would be one nobody holds.
 */
export async function POST(request: Request): Promise<Response> {
  const source = requestSourceOf(request);
  if (!isSameOriginRequest(request, source)) return crossSiteRefused();
  const form = await request.formData().catch(() => new FormData());
  const email = String(form.get('email') ?? '');
  const password = String(form.get('password') ?? '');
  const next = safeNextPath(String(form.get('next') ?? ''));
  const { db, logger, loginGuard } = getWebDeps();
  let signedIn: LoginResult;
  try {
    signedIn = await signInGuarded(loginGuard, { ip: source.clientIp, email }, () => login(db, { email, password }, new Date()));
  } catch (error) {
    return failedSignIn(error, { email, next, logger });
  }
  const { user, session, locale } = signedIn;
  logger.info({ event: 'web.sign_in', userId: user.id }, 'signed in');
  // A language chosen in this browser before signing in (on this very page, say) is the agent's
  // latest choice: it stays, and the account keeps it for browsers where none was made. Without
  // one, the pages follow the account's (src/i18n/request.ts). Should the account not take it
  // now, this browser still has its cookie.
  const chosen = parseCookies(request.headers.get('cookie')).get(LOCALE_COOKIE);
  if (isLocale(chosen) && chosen !== locale) {
    await saveUserLocale(db, user.id, chosen).catch((error: unknown) => {
      logger.warn({ err: error, event: 'web.sign_in_locale_not_saved', userId: user.id }, 'language choice not saved to the account');
    });
  }
  return redirectTo(next, [serializeSessionCookie(session.token, { expiresAt: session.expiresAt, secure: source.https })]);
}
