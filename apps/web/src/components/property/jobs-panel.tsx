'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useEffect, useId, useRef, useState } from 'react';
import { DAILY_PURCHASE_CAP_REACHED, purchaseDayOf } from '@staging/domain/daily-purchase-cap';
import { purchaseSummary } from '@staging/domain/job-outcome';
import { isTerminalJobStatus, type JobStatus } from '@staging/domain/staging-states';
import { isCanonicalStyle, styleLabel } from '@staging/domain/styles';
import type { RouterOutputs } from '@staging/trpc/root';
import { usePollInterval } from '@/client/live-status';
import { useTRPC } from '@/client/trpc';
import { useDashboardText } from '@/client/use-dashboard-text';
import { useStagingFailureText } from '@/client/use-error-sentence';
import { useRoomTypeLabel } from '@/client/use-room-type-label';
import { QueryError, QueryLoading } from '@/components/query-state';
import { formatElapsed, microusdToUsd } from '@/lib/format';
import { AlertMessage } from '@/components/alert-message';
import { Pager } from '@/components/pager';
import { ResultDialog, type ResultPair } from './result-dialog';
import '@/components/review/review.css';

type Job = RouterOutputs['ai']['jobHistory']['items'][number];
type CancelResult = RouterOutputs['ai']['cancelStaging'];
type JobsTranslator = ReturnType<typeof useTranslations<'jobs'>>;

const PAGE_SIZE = 10;

// A cancel is accepted while the job has not settled and none was requested yet (a repeat cancel
// is harmless on the server, but offering it twice would only confuse).
const CANCELABLE: readonly JobStatus[] = ['PENDING', 'PROCESSING', 'RETRYING'];

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

/** What a cancel bought, in the agent's words (docs/system.md: estimates only, never a charge). */
function cancelSentence(job: Pick<CancelResult, 'status' | 'attempts'>, t: JobsTranslator): string {
  const { bought, unconfirmed } = purchaseSummary(job.attempts.map((attempt) => attempt.purchase));
  if (job.status === 'CANCEL_REQUESTED') return bought > 0 ? t('cancelRequestedBought', { count: bought }) : t('outcomeCANCEL_REQUESTED');
  if (bought > 0) return t('canceledBought', { count: bought });
  return unconfirmed > 0 ? t('canceledUnconfirmed') : t('canceledNothingBought');
}

/**
 * The file name is how the agent knows a photo; the property's own naming ("Photo 2") covers
 * photos stored before names were kept, and the property title the rest.
 */
function jobPhotoName(job: Job, t: JobsTranslator, photoName: ((imageId: string | null) => string) | undefined): string {
  return job.original?.fileName ?? photoName?.(job.originalImageId) ?? t('photoOf', { title: job.propertyTitle });
}

function Thumb({ image, alt }: { image: Job['original']; alt: string }) {
  if (image === null) return <span className="thumb" aria-hidden="true" />;
  return <img className="thumb" src={image.url} alt={alt} width={72} height={48} loading="lazy" />;
}

function JobRow({
  job,
  photo,
  showProperty,
  onView,
  onShowBatch,
}: {
  job: Job;
  photo: string;
  showProperty: boolean;
  onView: (pair: ResultPair) => void;
  /** Absent while the panel already shows one batch. */
  onShowBatch: ((submissionId: string) => void) | undefined;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { t, tc, locale, errorSentence } = useDashboardText('jobs');
  const failureText = useStagingFailureText();
  const roomTypeLabel = useRoomTypeLabel();
  const [cancelResult, setCancelResult] = useState<CancelResult | undefined>();
  const cancel = useMutation(
    trpc.ai.cancelStaging.mutationOptions({
      onSuccess: setCancelResult,
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.ai.jobHistory.queryKey() }),
    }),
  );
  // The note follows the job once the list has caught up with the cancel ("Cancel requested…" then
  // "Canceled…"); until then it says what the cancel answered. A job that finished before the
  // cancel could stop it shows its outcome instead.
  const cancelNote =
    cancelResult === undefined
      ? undefined
      : job.status === 'CANCEL_REQUESTED' || job.status === 'CANCELED'
        ? cancelSentence(job, t)
        : CANCELABLE.includes(job.status)
          ? cancelSentence(cancelResult, t)
          : undefined;
  const attempt = job.attempts.reduce((max, a) => Math.max(max, a.attemptNumber), 0);
  const batchId = job.submissionId;
  const style = job.canonicalStyle !== null && isCanonicalStyle(job.canonicalStyle) ? styleLabel(job.canonicalStyle, locale) : job.canonicalStyle;
  const room = roomTypeLabel(job.roomType);
  const finishedAt = job.timings.completedAt;
  const reviewLink = job.outcome === 'PENDING_REVIEW' && job.result !== null ? `/review?image=${encodeURIComponent(job.result.id)}` : undefined;
  const viewable = job.outcome === 'APPROVED' ? job.result : null;
  const hiddenName = (
    <span className="visually-hidden">
      {' '}
      {photo} {style}
    </span>
  );

  return (
    <li className="job history-row" data-testid="job" data-job-id={job.aiJobId} data-status={job.status} data-outcome={job.outcome} data-phase={job.phase ?? ''}>
      <div className="history-thumbs">
        <Thumb image={job.original} alt={t('originalAlt', { photo })} />
        {job.result !== null && <Thumb image={job.result} alt={t('resultAlt', { photo, style: style ?? '' })} />}
      </div>
      <div className="job-main">
        <strong>{photo}</strong>
        <span className="muted">
          {' '}
          · {style}
          {room !== null && ` · ${room}`}
        </span>
        {showProperty && (
          <div className="small">
            <Link href={`/properties/${encodeURIComponent(job.propertyId)}`}>{job.propertyTitle}</Link>
          </div>
        )}
        <div className="row small" style={{ marginTop: '0.25rem' }}>
          <span className={`status ${OUTCOME_CLASS[job.outcome]}`} data-testid="job-status">
            {t(`outcome${job.outcome}`)}
          </span>
          {job.phase === 'PROVIDER_DISABLED' && !isTerminalJobStatus(job.status) && (
            <span className="status status-wait" data-testid="job-phase">
              {t('providerDisabled')}
            </span>
          )}
          {job.placeInLine !== null && !isTerminalJobStatus(job.status) && (
            <span className="status status-wait" data-testid="job-place-in-line" data-position={job.placeInLine.position}>
              {t('placeInLine', { position: job.placeInLine.position, at: new Date(job.placeInLine.expectedStartAt) })}
            </span>
          )}
          {job.phase === DAILY_PURCHASE_CAP_REACHED && !isTerminalJobStatus(job.status) && (
            <span className="status status-wait" data-testid="job-phase">
              {t('dailyCapReached', { at: purchaseDayOf(new Date()).end })}
            </span>
          )}
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
        </div>
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
        {cancelNote !== undefined && (
          <p className="small alert alert-info" role="status" style={{ margin: '0.25rem 0 0' }} data-testid="cancel-note">
            {cancelNote}
          </p>
        )}
        <AlertMessage message={cancel.isError ? errorSentence(cancel.error) : undefined} />
      </div>
      {CANCELABLE.includes(job.status) && (
        <button type="button" className="button button-small" disabled={cancel.isPending} onClick={() => cancel.mutate({ aiJobId: job.aiJobId })}>
          {cancel.isPending ? t('canceling') : tc('cancel')}
          {hiddenName}
        </button>
      )}
      {CANCELABLE.includes(job.status) && batchId !== null && onShowBatch !== undefined && (
        <button type="button" className="button button-small" data-testid="job-show-batch" onClick={() => onShowBatch(batchId)}>
          {t('showBatch')}
          {hiddenName}
        </button>
      )}
    </li>
  );
}

const PLACE_IN_LINE_REFRESH_MS = 2_000;

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
export function JobsPanel({
  propertyId,
  photoName,
}: {
  propertyId?: string;
  photoName?: (imageId: string | null) => string;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const t = useTranslations('jobs');
  const id = useId();
  const poll = usePollInterval();
  // Cursors of the pages before the current one; keyset pages cannot be addressed by number.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  // One submission's jobs together (its batch), or every job.
  const [batch, setBatch] = useState<string | undefined>();
  const showBatch = (submissionId: string | undefined) => {
    setBatch(submissionId);
    setCursors([undefined]);
  };
  const jobs = useQuery(
    trpc.ai.jobHistory.queryOptions(
      {
        limit: PAGE_SIZE,
        ...(propertyId === undefined ? {} : { propertyId }),
        ...(batch === undefined ? {} : { submissionId: batch }),
        ...(cursor === undefined ? {} : { cursor }),
      },
      {
        staleTime: 0,
        placeholderData: (previous) => previous,
        // Without the live stream: often while a job on the page runs, slower once all are
        // settled (a review elsewhere still shows).
        // A place in line moves whenever anybody's job starts, which the live stream only tells
        // the owners of that job: while one waits, read again every couple of seconds.
        refetchInterval: (query) => {
          const items = query.state.data?.items ?? [];
          if (items.some((job) => job.placeInLine !== null)) return PLACE_IN_LINE_REFRESH_MS;
          return poll(items.some((job) => !isTerminalJobStatus(job.status)));
        },
      },
    ),
  );
  const items = jobs.data?.items ?? [];
  const nameOf = (job: Job) => jobPhotoName(job, t, photoName);
  const [viewing, setViewing] = useState<ResultPair | undefined>();

  // A job that just finished produced (or, canceled, removed) a variant: refresh the photos, and
  // tell screen-reader users, who do not see the status pill change.
  const seen = useRef(new Map<string, Job['outcome']>());
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    let settled = false;
    const changes: string[] = [];
    for (const job of items) {
      const before = seen.current.get(job.aiJobId);
      if (before !== undefined && before !== job.outcome) {
        changes.push(`${jobPhotoName(job, t, photoName)}: ${t(`outcome${job.outcome}`)}`);
        if (isTerminalJobStatus(job.status)) settled = true;
      }
      seen.current.set(job.aiJobId, job.outcome);
    }
    if (changes.length > 0) setAnnouncement(changes.join('. '));
    if (settled) {
      void queryClient.invalidateQueries({ queryKey: trpc.property.get.queryKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.property.list.queryKey() });
    }
  }, [items, queryClient, trpc, t, photoName]);

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
              photo={nameOf(job)}
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
