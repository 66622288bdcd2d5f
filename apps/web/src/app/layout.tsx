import type { Metadata, Viewport } from 'next';
import { NextIntlClientProvider } from 'next-intl';
import { getLocale, getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { BrowserTimeZone } from '@/client/browser-time-zone';
import { SkipLink } from '@/components/skip-link';
import './globals.css';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('meta');
  return {
    title: { default: t('appTitle'), template: t('titleTemplate', { page: '%s' }) },
    description: t('description'),
  };
}

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

// Every page is rendered per request: Next.js can only put the proxy's per-request CSP nonce on
// the scripts of a page it renders now, and a prerendered page's scripts would be blocked.
export const dynamic = 'force-dynamic';

// The language of this request (src/i18n/request.ts); the provider hands its messages to the
// client components.
export default async function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang={await getLocale()}>
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
