'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { useTRPC } from '@/client/trpc';
import { useDashboardText } from '@/client/use-dashboard-text';
import { QueryError, QueryLoading } from '@/components/query-state';
import { AlertMessage } from '@/components/alert-message';
import { Pager } from '@/components/pager';
import { CANCELABLE, jobPhotoName, useJobHistory, type PhotoNameOf } from './job-history';
import { JobRow } from './job-row';
import { ResultDialog, type ResultPair } from './result-dialog';
import { useJobOutcomeChanges } from './use-job-outcome-changes';
import '@/components/review/review.css';

/** Above the jobs of one submission: the way back to every job, and one cancel for what is still open. */
function BatchBar({ submissionId, open, onShowAll }: { submissionId: string; open: number; onShowAll: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { t, errorSentence } = useDashboardText('jobs');
  const cancel = useMutation(
    trpc.ai.cancelSubmission.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.ai.jobHistory.queryKey() }),
    }),
  );
  return (
    <div className="row" data-testid="job-batch">
      <strong>{t('batchTitle')}</strong>
      <button type="button" className="button button-small" onClick={onShowAll}>
        {t('showAllJobs')}
      </button>
      {open > 0 && (
        <button type="button" className="button button-small" data-testid="job-cancel-batch" disabled={cancel.isPending} onClick={() => cancel.mutate({ submissionId })}>
          {cancel.isPending ? t('canceling') : t('cancelBatch', { count: open })}
        </button>
      )}
      {cancel.isSuccess && (
        <p className="small alert alert-info" role="status" data-testid="batch-cancel-note" style={{ margin: 0 }}>
          {t('batchCanceled', { count: cancel.data.items.length })}
        </p>
      )}
      <AlertMessage message={cancel.isError ? errorSentence(cancel.error) : undefined} />
    </div>
  );
}

/**
 * Staging history, newest first, ten jobs a page: one property's (with `propertyId`) or every
 * property the agent manages. Each row follows its job and then the review of its result, by the
 * live stream or, without it, by polling.
 */
export function JobsPanel({ propertyId, photoName }: { propertyId?: string; photoName?: PhotoNameOf }) {
  const t = useTranslations('jobs');
  const id = useId();
  const { jobs, items, cursors, setCursors, batch, showBatch } = useJobHistory(propertyId);
  const announcement = useJobOutcomeChanges(items, photoName);
  const [viewing, setViewing] = useState<ResultPair | undefined>();

  return (
    <section className="card section" aria-labelledby={`${id}-title`} data-testid="jobs-panel">
      <h2 id={`${id}-title`}>{t('title')}</h2>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {jobs.isError && <QueryError error={jobs.error} onRetry={() => jobs.refetch()} retrying={jobs.isFetching} />}
      {jobs.isPending && <QueryLoading>{t('loading')}</QueryLoading>}
      {jobs.isSuccess && items.length === 0 && cursors.length === 1 && <p className="muted">{t('empty')}</p>}
      {batch !== undefined && <BatchBar submissionId={batch} open={items.filter((job) => CANCELABLE.includes(job.status)).length} onShowAll={() => showBatch(undefined)} />}
      {items.length > 0 && (
        <ul className="job-list">
          {items.map((job) => (
            <JobRow
              key={job.aiJobId}
              job={job}
              photo={jobPhotoName(job, t, photoName)}
              showProperty={propertyId === undefined}
              onView={setViewing}
              onShowBatch={batch === undefined ? showBatch : undefined}
            />
          ))}
        </ul>
      )}
      <ResultDialog pair={viewing} onClose={() => setViewing(undefined)} />
      <Pager
        label={t('title')}
        cursors={cursors}
        nextCursor={jobs.data?.nextCursor ?? null}
        onChange={setCursors}
        previousLabel={t('newer')}
        nextLabel={t('older')}
        pageLabel={t('page', { page: cursors.length })}
      />
    </section>
  );
}
