import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { LocaleSwitcher } from '@/components/locale-switcher';

// Public pages read live listing data on every request.
export const dynamic = 'force-dynamic';

export default async function PublicLayout({ children }: { children: ReactNode }) {
  const t = await getTranslations('publicHeader');
  const tc = await getTranslations('common');
  return (
    <>
      <header className="site-header">
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
          <LocaleSwitcher />
        </div>
      </header>
      <main id="main" className="page" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
