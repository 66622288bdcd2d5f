'use client';

import { useDashboardText } from '@/client/use-dashboard-text';
import { describeError } from '@/lib/api-errors';

/** Why the units could not be read: a property that is not there, or a failure that can be tried again. */
export function UnitsLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t, tc, errorSentence } = useDashboardText('inventory');
  const notFound = describeError(error).code === 'NOT_FOUND';
  return (
    <div className="alert alert-error" role="alert">
      {notFound ? t('notFound') : errorSentence(error)}
      {!notFound && (
        <button type="button" className="link-button" style={{ marginLeft: '0.5rem' }} onClick={onRetry}>
          {tc('tryAgain')}
        </button>
      )}
    </div>
  );
}
