import { cookies, headers } from 'next/headers';
import { getRequestConfig } from 'next-intl/server';
import { isLocale, type Locale } from '@staging/domain/locale';
import { LOCALE_COOKIE, localeOfRequest } from '@/lib/locale';
import { getCurrentSession } from '@/server/session';
import type en from '../../messages/en.json';

// One import each, so a new locale does not compile until its messages have every key English has.
const MESSAGES: Record<Locale, () => Promise<{ default: typeof en }>> = {
  en: () => import('../../messages/en.json'),
  es: () => import('../../messages/es.json'),
};

// No locale in the URL (the routes stay as they are): the switcher's pick in this browser, else
// the signed-in account's (read with the session the page reads anyway), else Accept-Language.
// The public pages are the exception: the proxy picks their language from the pick and
// Accept-Language (it reads no session) and puts it in the internal route, whose layout pins it
// (setRequestLocale), so that their render reads no cookie or header and can be cached.
export default getRequestConfig(async ({ requestLocale }) => {
  const pinned = await requestLocale;
  const locale = isLocale(pinned)
    ? pinned
    : localeOfRequest({
        chosen: (await cookies()).get(LOCALE_COOKIE)?.value,
        account: (await getCurrentSession())?.locale ?? null,
        acceptLanguage: (await headers()).get('accept-language'),
      });
  return { locale, messages: (await MESSAGES[locale]()).default };
});
