import type { Metadata, Viewport } from 'next';
import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { HeaderHeight } from '@/client/header-height';
import { DocumentShell, documentMetadata } from '@/components/document-shell';
import { PublicLocaleSwitcher } from '@/components/public-locale-switcher';
import { pinLocale } from '@/server/public-pages';

export async function generateMetadata({ params }: LayoutProps<'/[locale]'>): Promise<Metadata> {
  return documentMetadata(pinLocale((await params).locale));
}

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

/**
 * The root layout of the public pages (the listing and search pages visitors and CDNs see). The
 * proxy rewrites /listings/… and /search to a route that starts with the visitor's language, so
 * every page here is rendered once per language and served from the cache: nothing under this
 * layout may read cookies, headers or search params, and its CSP has no per-request nonce.
 */
export default async function PublicLayout({ children, params }: LayoutProps<'/[locale]'>) {
  const locale = pinLocale((await params).locale);
  const t = await getTranslations('publicHeader');
  const tc = await getTranslations('common');
  return (
    <DocumentShell locale={locale}>
      <header className="site-header">
        <HeaderHeight />
        <div className="site-header-inner">
          <Link className="brand" href="/search">
            {t('brand')}
          </Link>
          <nav aria-label={tc('mainNav')}>
            <ul className="nav-list">
              <li>
                <Link className="nav-link" href="/search">
                  {t('searchHomes')}
                </Link>
              </li>
              <li>
                <Link className="nav-link" href="/properties">
                  {t('agentDashboard')}
                </Link>
              </li>
            </ul>
          </nav>
          <PublicLocaleSwitcher />
        </div>
      </header>
      <main id="main" className="page" tabIndex={-1}>
        {children}
      </main>
    </DocumentShell>
  );
}
