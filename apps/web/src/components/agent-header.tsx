'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { useLiveStatus } from '@/client/live-status';
import { usePendingReviewCount, useStartLine } from '@/client/review-data';
import { HeaderHeight } from '@/client/header-height';
import { AgentNav } from '@/components/agent-nav';
import { LocaleSwitcher } from '@/components/locale-switcher';
import { ReviewBadges } from '@/components/review-badges';

/** Top navigation of the agent dashboard with the live count of variants waiting for review. */
export function AgentHeader({ userName }: { userName: string }) {
  const t = useTranslations('agentHeader');
  const pathname = usePathname();
  const pending = usePendingReviewCount();
  const line = useStartLine();
  const { isLive } = useLiveStatus();
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
          <ReviewBadges pending={pending} line={line} onLink={false} />
        </button>
        <div className="nav-menu" id={`${id}-menu`}>
          <AgentNav pathname={pathname} reviewBadges={<ReviewBadges pending={pending} line={line} onLink />} />
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
