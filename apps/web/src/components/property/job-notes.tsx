'use client';

import { useDashboardText } from '@/client/use-dashboard-text';
import { useStagingFailureText } from '@/client/use-error-sentence';
import { AlertMessage } from '@/components/alert-message';
import type { Job } from './job-history';
import type { JobCancel } from './use-job-cancel';

/** Why the job failed or its result was turned down, and what a cancel of it did. */
export function JobNotes({ job, cancel }: { job: Job; cancel: JobCancel }) {
  const { t, errorSentence } = useDashboardText('jobs');
  const failureText = useStagingFailureText();
  return (
    <>
      {job.status === 'FAILED' && (
        <p className="small" style={{ margin: '0.25rem 0 0' }} data-testid="job-reason">
          {t('failureReason', { reason: failureText(job.errorCode) })}
        </p>
      )}
      {(job.outcome === 'REJECTED' || job.outcome === 'TAKEN_DOWN') && job.rejectionReason !== null && (
        <p className="small" style={{ margin: '0.25rem 0 0' }}>
          {t('rejectionReason', { reason: job.rejectionReason })}
        </p>
      )}
      {cancel.note !== undefined && (
        <p className="small alert alert-info" role="status" style={{ margin: '0.25rem 0 0' }} data-testid="cancel-note">
          {cancel.note}
        </p>
      )}
      <AlertMessage message={cancel.error === undefined ? undefined : errorSentence(cancel.error)} />
    </>
  );
}
