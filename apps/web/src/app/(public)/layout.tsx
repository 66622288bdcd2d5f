import Link from 'next/link';
import type { ReactNode } from 'react';

// Public pages read live listing data on every request.
export const dynamic = 'force-dynamic';

export default function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <header className="site-header">
        <div className="site-header-inner">
          <Link className="brand" href="/search">
            Listings
          </Link>
          <nav aria-label="Main">
            <ul className="nav-list">
              <li>
                <Link className="nav-link" href="/search">
                  Search homes
                </Link>
              </li>
              <li>
                <Link className="nav-link" href="/properties">
                  Agent dashboard
                </Link>
              </li>
            </ul>
          </nav>
        </div>
      </header>
      <main id="main" className="page" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
