import { cookies, headers } from 'next/headers';
import { getRequestConfig } from 'next-intl/server';
import { isLocale } from '@staging/domain/locale';
import { LOCALE_COOKIE, localeOfRequest } from '@/lib/locale';
import type en from '../../messages/en.json';

// No locale in the URL (the routes stay as they are): the agent's pick in the switcher (a cookie,
// restored from their account at sign-in), else the browser's Accept-Language, else English.
// The public pages are the exception: the proxy picks their language by the same rule and puts it
// in the internal route, whose layout pins it (setRequestLocale), so that their render reads no
// cookie or header and can be cached.
export default getRequestConfig(async ({ requestLocale }) => {
  const pinned = await requestLocale;
  const locale = isLocale(pinned) ? pinned : localeOfRequest((await cookies()).get(LOCALE_COOKIE)?.value, (await headers()).get('accept-language'));
  const messages = (await import(`../../messages/${locale}.json`)) as { default: typeof en };
  return { locale, messages: messages.default };
});
