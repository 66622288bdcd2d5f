'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
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
  return (
    <header className="site-header">
      <div className="site-header-inner">
        <Link className="brand" href="/properties">
          Listings dashboard
        </Link>
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
    </header>
  );
}
