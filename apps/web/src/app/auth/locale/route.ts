import { isLocale } from '@staging/domain/locale';
import { safeNextPath } from '@staging/domain/safe-next-path';
import { saveUserLocale } from '@staging/services/auth/user-locale';
import { serializeLocaleCookie } from '@/lib/locale';
import { getWebDeps } from '@/server/deps';
import { crossSiteRefused, isHttpsRequest, isSameOriginRequest } from '@/server/same-origin';
import { getCurrentUser } from '@/server/session';

export const dynamic = 'force-dynamic';

// The sign-in page is a fine page to come back to after switching (safeNextPath refuses it, as
// a target after signing in); anything else must pass safeNextPath. Printable ASCII only: a
// Location header cannot carry anything else.
const SIGN_IN_PATH = /^\/sign-in(?:\?[\x21-\x7e]*)?$/;

function returnPath(value: string): string {
  return value.length <= 2048 && SIGN_IN_PATH.test(value) ? value : safeNextPath(value, '/search');
}

/**
 * Form post of the language switcher (works without JavaScript): the pick goes into a cookie for
 * this browser and, for a signed-in agent, into their account, which browsers without a pick of
 * their own follow (docs/decisions/web.md "Which language a page is in"). Then back to the page it
 * came from; the switcher's script reads only the cookie and stays where it is.
 */
export async function POST(request: Request): Promise<Response> {
  if (!isSameOriginRequest(request)) return crossSiteRefused();
  const form = await request.formData().catch(() => new FormData());
  const locale = String(form.get('locale') ?? '');
  const next = returnPath(String(form.get('next') ?? ''));
  const headers: Record<string, string> = { location: next, 'cache-control': 'no-store' };
  if (isLocale(locale)) {
    const user = await getCurrentUser();
    if (user !== null) await saveUserLocale(getWebDeps().db, user.id, locale);
    headers['set-cookie'] = serializeLocaleCookie(locale, { secure: isHttpsRequest(request) });
  }
  return new Response(null, { status: 303, headers });
}
