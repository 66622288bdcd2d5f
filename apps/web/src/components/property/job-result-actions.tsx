'use client';

import Link from 'next/link';
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import type { Job } from './job-history';
import type { ResultPair } from './result-dialog';

/**
 * The way to the job's result: the review while it waits for one, the result beside its original
 * once approved. `hiddenName` tells screen-reader users whose result it is.
 */
export function JobResultActions({
  job,
  photo,
  style,
  hiddenName,
  onView,
}: {
  job: Job;
  photo: string;
  style: string | null;
  hiddenName: ReactNode;
  onView: (pair: ResultPair) => void;
}) {
  const t = useTranslations('jobs');
  const reviewLink = job.outcome === 'PENDING_REVIEW' && job.result !== null ? `/review?image=${encodeURIComponent(job.result.id)}` : undefined;
  const viewable = job.outcome === 'APPROVED' ? job.result : null;
  return (
    <>
      {reviewLink !== undefined && (
        <Link href={reviewLink} data-testid="job-result-link">
          {t('openInReview')}
          {hiddenName}
        </Link>
      )}
      {viewable !== null && (
        <button
          type="button"
          className="button button-small"
          data-testid="job-view-result"
          onClick={() =>
            onView({
              title: t('resultTitle', { photo, style: style ?? '' }),
              original: job.original === null ? null : { ...job.original, alt: t('originalAlt', { photo }) },
              result: { ...viewable, alt: t('resultAlt', { photo, style: style ?? '' }) },
            })
          }
        >
          {t('viewResult')}
          {hiddenName}
        </button>
      )}
    </>
  );
}
