'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { usePendingReviewCount } from '@/client/review-data';
import { LocaleSwitcher } from '@/components/locale-switcher';

function NavLink({ href, children, current }: { href: string; children: React.ReactNode; current: boolean }) {
  return (
    <Link className="nav-link" href={href} aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  );
}

/** Top navigation of the agent dashboard with the live count of variants waiting for review. */
export function AgentHeader({ userName }: { userName: string }) {
  const t = useTranslations('agentHeader');
  const tc = useTranslations('common');
  const pathname = usePathname();
  const pending = usePendingReviewCount();
  const id = useId();
  // On phones the navigation folds behind a Menu button; it is open only on the page it was
  // opened on, so following a link folds it again.
  const [openOn, setOpenOn] = useState<string | undefined>();
  const menuOpen = openOn === pathname;
  return (
    <header className="site-header" data-menu-open={menuOpen}>
      <div className="site-header-inner">
        <Link className="brand" href="/properties">
          {t('brand')}
        </Link>
        <button
          type="button"
          className="button button-small nav-toggle"
          aria-expanded={menuOpen}
          aria-controls={`${id}-menu`}
          onClick={() => setOpenOn(menuOpen ? undefined : pathname)}
        >
          {t('menu')}
          {pending !== undefined && pending > 0 && (
            <span className="badge">
              {pending}
              <span className="visually-hidden"> {t('waitingForReview', { count: pending })}</span>
            </span>
          )}
        </button>
        <div className="nav-menu" id={`${id}-menu`}>
          <nav aria-label={tc('mainNav')}>
            <ul className="nav-list">
              <li>
                <NavLink href="/properties" current={pathname.startsWith('/properties')}>
                  {tc('properties')}
                </NavLink>
              </li>
              <li>
                <NavLink href="/review" current={pathname.startsWith('/review')}>
                  {t('review')}
                  {pending !== undefined && pending > 0 && (
                    <span className="badge" data-testid="review-count">
                      {pending}
                      <span className="visually-hidden"> {t('waitingForReview', { count: pending })}</span>
                    </span>
                  )}
                </NavLink>
              </li>
              <li>
                <NavLink href="/jobs" current={pathname.startsWith('/jobs')}>
                  {t('history')}
                </NavLink>
              </li>
              <li>
                <NavLink href="/spend" current={pathname.startsWith('/spend')}>
                  {t('spend')}
                </NavLink>
              </li>
              <li>
                <NavLink href="/search" current={pathname.startsWith('/search')}>
                  {t('publicSearch')}
                </NavLink>
              </li>
            </ul>
          </nav>
          <div className="nav-user">
            <LocaleSwitcher />
            <span className="muted small">{t('signedInAs', { name: userName })}</span>
            <form method="post" action="/auth/sign-out">
              <button type="submit" className="button button-small">
                {t('signOut')}
              </button>
            </form>
          </div>
        </div>
      </div>
    </header>
  );
}
