'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useLocale, useTranslations } from 'next-intl';
import { LOCALES, type Locale } from '@staging/domain/locale';
import styles from './locale-switcher.module.css';

// Each language by its own name, in its own language: whoever cannot read the current one still
// finds theirs. Not catalogue text for that reason.
const AUTONYMS: Record<Locale, string> = { en: 'English', es: 'Español' };

/**
 * The UI language switcher on a page rendered per request: it comes back to the URL in the
 * address bar.
 */
export function LocaleSwitcher() {
  const query = useSearchParams().toString();
  return <LocaleSwitcherForm here={`${usePathname()}${query === '' ? '' : `?${query}`}`} />;
}

/**
 * The UI language switcher: a plain form post to /auth/locale (no JavaScript needed), which
 * remembers the pick and comes back to `here`.
 */
export function LocaleSwitcherForm({ here }: { here: string }) {
  const t = useTranslations('language');
  const current = useLocale();
  return (
    <form method="post" action="/auth/locale" className={styles.switcher} aria-label={t('label')} data-testid="locale-switcher">
      <input type="hidden" name="next" value={here} />
      {LOCALES.map((locale) => (
        <button
          key={locale}
          type="submit"
          name="locale"
          value={locale}
          lang={locale}
          className="button button-small"
          aria-pressed={locale === current}
        >
          {AUTONYMS[locale]}
        </button>
      ))}
    </form>
  );
}
