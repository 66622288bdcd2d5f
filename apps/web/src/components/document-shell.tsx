import type { Metadata } from 'next';
import { NextIntlClientProvider } from 'next-intl';
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import type { Locale } from '@staging/domain/locale';
import { BrowserTimeZone } from '@/client/browser-time-zone';
import { SkipLink } from '@/components/skip-link';
import '@/app/globals.css';

/**
 * Title template and description of every page, in `locale`. The public pages name their locale
 * (they are rendered once per language and may not read the request); the dashboard's pages
 * leave it to the request.
 */
export async function documentMetadata(locale?: Locale): Promise<Metadata> {
  const t = locale === undefined ? await getTranslations('meta') : await getTranslations({ locale, namespace: 'meta' });
  return {
    title: { default: t('appTitle'), template: t('titleTemplate', { page: '%s' }) },
    description: t('description'),
  };
}

/**
 * The document of both root layouts (the dashboard's and the public pages'): the page's language
 * on <html>, and the provider that hands its messages to the client components.
 */
export function DocumentShell({ locale, children }: { locale: Locale; children: ReactNode }) {
  return (
    <html lang={locale}>
      <body>
        <NextIntlClientProvider>
          <BrowserTimeZone>
            <SkipLink />
            {children}
          </BrowserTimeZone>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
