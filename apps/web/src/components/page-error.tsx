'use client';

import { useTranslations } from 'next-intl';

/**
 * What a route group's error boundary shows when one of its pages fails to render (a database
 * outage, a bug): a localized sentence and a retry, inside the group's own header and navigation.
 * Production builds hide the error's message from the browser and the error itself already went
 * to the error tracker through instrumentation's onRequestError, so there is nothing more to show.
 */
export function PageError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations('errors');
  const tc = useTranslations('common');
  return (
    <div className="stack">
      <h1>{t('pageTitle')}</h1>
      <p className="alert alert-error" role="alert">
        {t('pageBody')}
      </p>
      <div>
        <button type="button" className="button button-primary" onClick={reset}>
          {tc('tryAgain')}
        </button>
      </div>
    </div>
  );
}
