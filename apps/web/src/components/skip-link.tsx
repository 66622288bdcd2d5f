'use client';

import { usePathname } from 'next/navigation';
import { useTranslations } from 'next-intl';

/** The agent's property page (not its inventory), where the stage panel sits below the photos. */
const PROPERTY_PAGE = /^\/properties\/[^/]+\/?$/;

/**
 * The first focusable element of every page. On the property page it skips the header, the
 * upload form and every photo card straight to the stage panel (the page's main task, otherwise
 * dozens of Tabs away); elsewhere to the main content.
 */
export function SkipLink() {
  const t = useTranslations('meta');
  const toStagePanel = PROPERTY_PAGE.test(usePathname());
  return (
    <a className="skip-link" href={toStagePanel ? '#stage-panel' : '#main'}>
      {toStagePanel ? t('skipToStage') : t('skipToMain')}
    </a>
  );
}
