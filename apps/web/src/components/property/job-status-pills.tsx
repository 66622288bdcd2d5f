'use client';

import { useTranslations } from 'next-intl';
import { DAILY_PURCHASE_CAP_REACHED, purchaseDayOf } from '@staging/domain/daily-purchase-cap';
import { isTerminalJobStatus } from '@staging/domain/staging-states';
import type { Job } from './job-history';

const OUTCOME_CLASS: Record<Job['outcome'], string> = {
  PENDING: 'status-wait',
  PROCESSING: 'status-run',
  RETRYING: 'status-wait',
  CANCEL_REQUESTED: 'status-wait',
  PENDING_REVIEW: 'status-wait',
  APPROVED: 'status-ok',
  REJECTED: 'status-bad',
  TAKEN_DOWN: 'status-bad',
  REMOVED: '',
  CANCELED: '',
  FAILED: 'status-bad',
};

/** Where the job stands and, while it has not settled, what holds it: the kill switch, the line or the day's purchase cap. */
export function JobStatusPills({ job }: { job: Job }) {
  const t = useTranslations('jobs');
  const settled = isTerminalJobStatus(job.status);
  return (
    <>
      <span className={`status ${OUTCOME_CLASS[job.outcome]}`} data-testid="job-status">
        {t(`outcome${job.outcome}`)}
      </span>
      {job.phase === 'PROVIDER_DISABLED' && !settled && (
        <span className="status status-wait" data-testid="job-phase">
          {t('providerDisabled')}
        </span>
      )}
      {job.placeInLine !== null && !settled && (
        <span className="status status-wait" data-testid="job-place-in-line" data-position={job.placeInLine.position}>
          {t('placeInLine', { position: job.placeInLine.position, at: new Date(job.placeInLine.expectedStartAt) })}
        </span>
      )}
      {job.phase === DAILY_PURCHASE_CAP_REACHED && !settled && (
        <span className="status status-wait" data-testid="job-phase">
          {t('dailyCapReached', { at: purchaseDayOf(new Date()).end })}
        </span>
      )}
    </>
  );
}
