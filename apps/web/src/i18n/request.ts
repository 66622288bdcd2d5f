import { cookies, headers } from 'next/headers';
import { getRequestConfig } from 'next-intl/server';
import { LOCALE_COOKIE, localeOfRequest } from '@/lib/locale';
import type en from '../../messages/en.json';

// No locale in the URL (the routes stay as they are): the agent's pick in the switcher (a cookie,
// restored from their account at sign-in), else the browser's Accept-Language, else English.
export default getRequestConfig(async () => {
  const locale = localeOfRequest((await cookies()).get(LOCALE_COOKIE)?.value, (await headers()).get('accept-language'));
  const messages = (await import(`../../messages/${locale}.json`)) as { default: typeof en };
  return { locale, messages: messages.default };
});
