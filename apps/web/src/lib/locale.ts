import { isLocale, type Locale } from '@staging/domain/locale';

export const DEFAULT_LOCALE: Locale = 'en';

/**
 * The language picked with the switcher in this browser, signed in or not. Only the switcher
 * writes it: it is this browser's explicit choice, never a copy of the account's.
 */
export const LOCALE_COOKIE = 'locale';

const LOCALE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/**
 * The switcher's cookie. Not HttpOnly-worthy (it is no secret) but set HttpOnly anyway: only the
 * server reads it. A year long, and kept at sign-out: a choice made in this browser stays chosen.
 */
export function serializeLocaleCookie(locale: Locale, options: { secure: boolean }): string {
  const parts = [`${LOCALE_COOKIE}=${locale}`, 'Path=/', `Max-Age=${LOCALE_COOKIE_MAX_AGE_S}`, 'HttpOnly', 'SameSite=Lax'];
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

/** What a request says about the language its reader wants. */
export interface LocaleSources {
  /** The switcher's cookie of this browser (unchecked text). */
  chosen: string | undefined;
  /** The language saved in the signed-in user's account; null when signed out or never picked. */
  account: Locale | null;
  acceptLanguage: string | null;
}

/**
 * The UI language of a request (docs/decisions/web.md "Which language a page is in"): a choice made
 * in this browser, else the signed-in account's, else the browser's Accept-Language, else English.
 */
export function localeOfRequest({ chosen, account, acceptLanguage }: LocaleSources): Locale {
  if (isLocale(chosen)) return chosen;
  return account ?? pickLocale(parseAcceptLanguage(acceptLanguage));
}
