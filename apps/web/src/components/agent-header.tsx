'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useId, useState } from 'react';
import { usePendingReviewCount } from '@/client/review-data';

function NavLink({ href, children, current }: { href: string; children: React.ReactNode; current: boolean }) {
  return (
    <Link className="nav-link" href={href} aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  );
}

/** Top navigation of the agent dashboard with the live count of variants waiting for review. */
export function AgentHeader({ userName }: { userName: string }) {
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
          Listings dashboard
        </Link>
        <button
          type="button"
          className="button button-small nav-toggle"
          aria-expanded={menuOpen}
          aria-controls={`${id}-menu`}
          onClick={() => setOpenOn(menuOpen ? undefined : pathname)}
        >
          Menu
          {pending !== undefined && pending > 0 && (
            <span className="badge">
              {pending}
              <span className="visually-hidden"> variants waiting for review</span>
            </span>
          )}
        </button>
        <div className="nav-menu" id={`${id}-menu`}>
          <nav aria-label="Main">
            <ul className="nav-list">
              <li>
                <NavLink href="/properties" current={pathname.startsWith('/properties')}>
                  Properties
                </NavLink>
              </li>
              <li>
                <NavLink href="/review" current={pathname.startsWith('/review')}>
                  Review
                  {pending !== undefined && pending > 0 && (
                    <span className="badge" data-testid="review-count">
                      {pending}
                      <span className="visually-hidden"> variants waiting for review</span>
                    </span>
                  )}
                </NavLink>
              </li>
              <li>
                <NavLink href="/jobs" current={pathname.startsWith('/jobs')}>
                  History
                </NavLink>
              </li>
              <li>
                <NavLink href="/spend" current={pathname.startsWith('/spend')}>
                  Spend
                </NavLink>
              </li>
              <li>
                <NavLink href="/search" current={pathname.startsWith('/search')}>
                  Public search
                </NavLink>
              </li>
            </ul>
          </nav>
          <div className="nav-user">
            <span className="muted small">Signed in as {userName}</span>
            <form method="post" action="/auth/sign-out">
              <button type="submit" className="button button-small">
                Sign out
              </button>
            </form>
          </div>
        </div>
      </div>
    </header>
  );
}
