'use client';

import { useTranslations } from 'next-intl';

// Shown when an agent page fails to render; the error itself went to the error tracker through
// instrumentation's onRequestError, so only a retry is offered here.
export default function AgentError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
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
