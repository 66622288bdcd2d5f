import 'server-only';
import { headers } from 'next/headers';
import type { Locale } from '@staging/domain/locale';
import { parseAcceptLanguage, pickLocale } from '@/lib/locale';

/** The locale of this request from the browser's Accept-Language header (English fallback). */
export async function getRequestLocale(): Promise<Locale> {
  const requestHeaders = await headers();
  return pickLocale(parseAcceptLanguage(requestHeaders.get('accept-language')));
}
