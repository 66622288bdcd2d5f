'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { useLiveStatus } from '@/client/live-status';
import { usePendingReviewCount, useStartLine } from '@/client/review-data';
import { HeaderHeight } from '@/client/header-height';
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
  const line = useStartLine();
  const { isLive } = useLiveStatus();
  // On the Menu button (phones) and on the Review link: the same counts, one of each tested by id.
  // Beside the variants waiting for review, the photos still waiting to start on their way there.
  const lineText =
    line !== undefined && line.waiting > 0
      ? line.next === null
        ? t('waitingToStart', { count: line.waiting })
        : t('waitingToStartNext', { count: line.waiting, position: line.next.position, at: new Date(line.next.expectedStartAt) })
      : undefined;
  const reviewBadge = (onLink: boolean) => (
    <>
      {pending !== undefined && pending.pending > 0 && (
        <span className="badge" data-testid={onLink ? 'review-count' : undefined}>
          {pending.isLowerBound ? t('countAtLeast', { count: pending.pending }) : pending.pending}
          <span className="visually-hidden"> {t('waitingForReview', { count: pending.pending })}</span>
        </span>
      )}
      {line !== undefined && lineText !== undefined && (
        <span className="badge badge-neutral" title={lineText} data-testid={onLink ? 'start-line-count' : undefined} data-position={line.next?.position}>
          {t('inLine', { count: line.isLowerBound ? t('countAtLeast', { count: line.waiting }) : String(line.waiting) })}
          <span className="visually-hidden"> {lineText}</span>
        </span>
      )}
    </>
  );
  const id = useId();
  // On phones the navigation folds behind a Menu button; it is open only on the page it was
  // opened on, so following a link folds it again.
  const [openOn, setOpenOn] = useState<string | undefined>();
  const menuOpen = openOn === pathname;
  // data-live: whether the page follows changes by the live stream (true) or by polling; for tests and support.
  return (
    <header className="site-header" data-menu-open={menuOpen} data-live={isLive}>
      <HeaderHeight />
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
          {reviewBadge(false)}
        </button>
        <div className="nav-menu" id={`${id}-menu`}>
          <nav aria-label={tc('mainNav')}>
            <ul className="nav-list">
              {[
                { href: '/properties', label: tc('properties') },
                { href: '/review', label: <>{t('review')}{reviewBadge(true)}</> },
                { href: '/jobs', label: t('history') },
                { href: '/spend', label: t('spend') },
                { href: '/search', label: t('publicSearch') },
              ].map(({ href, label }) => (
                <li key={href}>
                  <NavLink href={href} current={pathname.startsWith(href)}>
                    {label}
                  </NavLink>
                </li>
              ))}
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
