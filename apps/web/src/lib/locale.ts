import { isLocale, type Locale } from '@staging/domain/locale';

export const DEFAULT_LOCALE: Locale = 'en';

/** The language picked in the switcher (and restored from the agent's account at sign-in). */
export const LOCALE_COOKIE = 'locale';

const LOCALE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/**
 * The switcher's cookie. Not HttpOnly-worthy (it is no secret) but set HttpOnly anyway: only the
 * server reads it. A year long: a visitor's pick should outlive the session; an agent's pick is
 * also kept in their account.
 */
export function serializeLocaleCookie(locale: Locale | null, options: { secure: boolean }): string {
  const parts = [`${LOCALE_COOKIE}=${locale ?? ''}`, 'Path=/', `Max-Age=${locale === null ? 0 : LOCALE_COOKIE_MAX_AGE_S}`, 'HttpOnly', 'SameSite=Lax'];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

function baseLanguage(tag: string): string {
  return tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
}

/**
 * The first supported language in the user's preference order (`navigator.languages`, or the
 * tags of an Accept-Language header already sorted by weight); English when none is supported.
 */
export function pickLocale(preferred: readonly string[]): Locale {
  for (const tag of preferred) {
    const base = baseLanguage(tag);
    if (isLocale(base)) return base;
  }
  return DEFAULT_LOCALE;
}

/** Language tags of an Accept-Language header, highest quality first (stable for ties). */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q === undefined ? 1 : Number(q.slice(2));
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map((entry) => entry.tag);
}

/** The UI language of a request: the switcher's cookie when valid, else Accept-Language. */
export function localeOfRequest(cookie: string | undefined, acceptLanguage: string | null): Locale {
  return isLocale(cookie) ? cookie : pickLocale(parseAcceptLanguage(acceptLanguage));
}
