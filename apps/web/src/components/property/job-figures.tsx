'use client';

import { useTranslations } from 'next-intl';
import { formatElapsed, microusdToUsd } from '@/lib/format';
import type { Job } from './job-history';

/** When the job was created and finished, how long it took, and its attempts with their estimated cost. */
export function JobFigures({ job }: { job: Job }) {
  const t = useTranslations('jobs');
  const attempt = job.attempts.reduce((max, a) => Math.max(max, a.attemptNumber), 0);
  const finishedAt = job.timings.completedAt;
  return (
    <>
      <time dateTime={job.timings.createdAt}>{t('created', { at: new Date(job.timings.createdAt) })}</time>
      {finishedAt !== null && (
        <span>
          <time dateTime={finishedAt}>{t('finished', { at: new Date(finishedAt) })}</time> (
          {t.rich('took', { time: formatElapsed(job.timings.elapsedMs), elapsed: (chunks) => <span data-testid="job-elapsed">{chunks}</span> })})
        </span>
      )}
      <span data-testid="job-attempt">{t('attempts', { count: attempt })}</span>
      <span data-testid="job-cost">
        {job.costEstimateMicrousd === null ? t('noCost') : t('cost', { cost: microusdToUsd(job.costEstimateMicrousd) })}
      </span>
    </>
  );
}
