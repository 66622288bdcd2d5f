import { cookies, headers } from 'next/headers';
import { getRequestConfig } from 'next-intl/server';
import { LOCALE_COOKIE, localeOfRequest } from '@/lib/locale';
import { getCurrentSession } from '@/server/session';
import type en from '../../messages/en.json';

// No locale in the URL (the routes stay as they are): the switcher's pick in this browser, else
// the signed-in account's (read with the session the page reads anyway), else Accept-Language.
export default getRequestConfig(async () => {
  const locale = localeOfRequest({
    chosen: (await cookies()).get(LOCALE_COOKIE)?.value,
    account: (await getCurrentSession())?.locale ?? null,
    acceptLanguage: (await headers()).get('accept-language'),
  });
  const messages = (await import(`../../messages/${locale}.json`)) as { default: typeof en };
  return { locale, messages: messages.default };
});
