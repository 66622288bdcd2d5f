'use client';

import Link from 'next/link';
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';

function NavLink({ href, children, current }: { href: string; children: ReactNode; current: boolean }) {
  return (
    <Link className="nav-link" href={href} aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  );
}

/** The dashboard's pages, the one at `pathname` marked current; the Review link carries `reviewBadges`. */
export function AgentNav({ pathname, reviewBadges }: { pathname: string; reviewBadges: ReactNode }) {
  const t = useTranslations('agentHeader');
  const tc = useTranslations('common');
  return (
    <nav aria-label={tc('mainNav')}>
      <ul className="nav-list">
        {[
          { href: '/properties', label: tc('properties') },
          { href: '/review', label: <>{t('review')}{reviewBadges}</> },
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
  );
}
