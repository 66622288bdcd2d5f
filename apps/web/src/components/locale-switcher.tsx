'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useLocale, useTranslations } from 'next-intl';
import { useRef, useTransition, type SubmitEvent } from 'react';
import { LOCALES, type Locale } from '@staging/domain/locale';
import styles from './locale-switcher.module.css';

// Each language by its own name, in its own language: whoever cannot read the current one still
// finds theirs. Not catalogue text for that reason.
const AUTONYMS: Record<Locale, string> = { en: 'English', es: 'Español' };

const ACTION = '/auth/locale';

/**
 * The UI language switcher on a page rendered per request: it comes back to the URL in the
 * address bar.
 */
export function LocaleSwitcher() {
  const query = useSearchParams().toString();
  return <LocaleSwitcherForm here={`${usePathname()}${query === '' ? '' : `?${query}`}`} />;
}

/**
 * The UI language switcher: a plain form post to /auth/locale (works without JavaScript), which
 * remembers the pick and comes back to `here`. With JavaScript the same post is sent in the
 * background and the page re-renders in place, so the reader keeps their scroll position, focus
 * and whatever they had open. A page whose root layout is per language (`reload`: the cached
 * public pages) cannot re-render in place: Next.js would load it afresh at the top; it is
 * reloaded instead, and the browser restores the scroll position of a reload.
 */
export function LocaleSwitcherForm({ here, reload = false }: { here: string; reload?: boolean }) {
  const t = useTranslations('language');
  const current = useLocale();
  const router = useRouter();
  const [switching, startTransition] = useTransition();
  // Set when the background post failed: the retry is the plain post, which the browser sends.
  const plainPost = useRef(false);

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    const submitter = event.nativeEvent.submitter;
    if (plainPost.current || !(submitter instanceof HTMLButtonElement)) return;
    event.preventDefault();
    const form = event.currentTarget;
    // redirect: manual, because the redirect back to this page is for the plain post; the cookie
    // it sets is stored all the same.
    const response = await fetch(ACTION, { method: 'POST', body: new FormData(form, submitter), redirect: 'manual' }).catch(() => undefined);
    if (response?.type !== 'opaqueredirect') {
      plainPost.current = true;
      form.requestSubmit(submitter);
      return;
    }
    if (reload) {
      window.location.reload();
      return;
    }
    // Re-renders the server components with the new cookie and drops the client's cached pages,
    // which were rendered in the old language.
    startTransition(() => router.refresh());
  };

  return (
    <form
      method="post"
      action={ACTION}
      className={styles.switcher}
      aria-label={t('label')}
      aria-busy={switching}
      data-testid="locale-switcher"
      onSubmit={(event) => void onSubmit(event)}
    >
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
