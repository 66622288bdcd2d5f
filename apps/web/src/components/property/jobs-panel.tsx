'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { Locale } from '@staging/domain/locale';
import { isRoomType, roomTypeLabel } from '@staging/domain/room-types';
import { isTerminalJobStatus, type JobStatus } from '@staging/domain/staging-states';
import { STYLE_COPY, isCanonicalStyle } from '@staging/domain/styles';
import type { RouterOutputs } from '@staging/trpc/root';
import { useBrowserLocale } from '@/client/use-browser-locale';
import { useTRPC } from '@/client/trpc';
import { errorSentence } from '@/lib/api-errors';
import { formatElapsed, formatMicrousd } from '@/lib/format';
import { STAGING_MESSAGES } from '@/lib/staging-messages';

type Job = RouterOutputs['ai']['listJobs']['items'][number];

/** Polling while something can still change; slower when every job is settled. */
const ACTIVE_POLL_MS = 1_500;
const IDLE_POLL_MS = 15_000;

// A cancel is accepted while the job has not settled and none was requested yet (a repeat cancel
// is harmless on the server, but offering it twice would only confuse).
const CANCELABLE: readonly JobStatus[] = ['PENDING', 'PROCESSING', 'RETRYING'];

const STATUS_CLASS: Record<JobStatus, string> = {
  PENDING: 'status-wait',
  PROCESSING: 'status-run',
  RETRYING: 'status-wait',
  CANCEL_REQUESTED: 'status-wait',
  SUCCESS: 'status-ok',
  CANCELED: '',
  FAILED: 'status-bad',
};

function useNow(intervalMs: number, active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, active]);
  return now;
}

function JobRow({ job, photo, locale, now }: { job: Job; photo: string; locale: Locale; now: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const m = STAGING_MESSAGES[locale];
  const cancel = useMutation(
    trpc.ai.cancelStaging.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.ai.listJobs.queryKey() }),
    }),
  );
  const open = !isTerminalJobStatus(job.status);
  // Open jobs tick locally between polls; settled ones show the server's final figure.
  const elapsed = open ? Math.max(job.timings.elapsedMs, now - Date.parse(job.timings.createdAt)) : job.timings.elapsedMs;
  const attempt = job.attempts.reduce((max, a) => Math.max(max, a.attemptNumber), 0);
  const style = job.canonicalStyle !== null && isCanonicalStyle(job.canonicalStyle) ? STYLE_COPY[locale][job.canonicalStyle].label : job.canonicalStyle;
  const room = isRoomType(job.roomType) ? roomTypeLabel(job.roomType, locale) : null;
  const disabledPhase = job.phase === 'PROVIDER_DISABLED';

  return (
    <li className="job" data-testid="job" data-job-id={job.aiJobId} data-status={job.status} data-phase={job.phase ?? ''}>
      <div className="job-main">
        <strong>{photo}</strong>
        <span className="muted">
          {' '}
          · {style}
          {room !== null && ` · ${room}`}
        </span>
        <div className="row small" style={{ marginTop: '0.25rem' }}>
          <span className={`status ${STATUS_CLASS[job.status]}`} data-testid="job-status">
            {m.status[job.status]}
          </span>
          {disabledPhase && (
            <span className="status status-wait" data-testid="job-phase">
              {m.providerDisabled}
            </span>
          )}
          <span>
            {m.elapsed}: <span data-testid="job-elapsed">{formatElapsed(elapsed)}</span>
          </span>
          <span data-testid="job-attempt">{attempt === 0 ? m.noAttemptYet : m.attempt(attempt)}</span>
          {job.errorCode !== null && (
            <span>
              {m.errorCode}: <code>{job.errorCode}</code>
            </span>
          )}
          {job.costEstimateMicrousd !== null && (
            <span>
              {m.costEstimate}: {formatMicrousd(job.costEstimateMicrousd)}
            </span>
          )}
        </div>
        {cancel.isError && (
          <p className="field-error" role="alert">
            {errorSentence(cancel.error)}
          </p>
        )}
      </div>
      {CANCELABLE.includes(job.status) && (
        <button
          type="button"
          className="button button-small"
          disabled={cancel.isPending}
          onClick={() => cancel.mutate({ aiJobId: job.aiJobId })}
        >
          {cancel.isPending ? m.canceling : m.cancel}
          <span className="visually-hidden">
            {' '}
            {photo} {style}
          </span>
        </button>
      )}
    </li>
  );
}

/** Live status of the property's staging jobs, polled with react-query (no reload needed). */
export function JobsPanel({ propertyId, photoName, initialLocale }: { propertyId: string; photoName: (imageId: string | null) => string; initialLocale: Locale }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const locale = useBrowserLocale(initialLocale);
  const m = STAGING_MESSAGES[locale];
  const id = useId();
  const jobs = useQuery(
    trpc.ai.listJobs.queryOptions(
      { propertyId, limit: 20 },
      {
        staleTime: 0,
        refetchInterval: (query) => (query.state.data?.items.some((job) => !isTerminalJobStatus(job.status)) ? ACTIVE_POLL_MS : IDLE_POLL_MS),
      },
    ),
  );
  const items = jobs.data?.items ?? [];
  const hasOpen = items.some((job) => !isTerminalJobStatus(job.status));
  const now = useNow(1_000, hasOpen);

  // A job that just finished produced (or, canceled, removed) a variant: refresh the photos, and
  // tell screen-reader users, who do not see the status pill change.
  const seen = useRef(new Map<string, JobStatus>());
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    let settled = false;
    const changes: string[] = [];
    for (const job of items) {
      const before = seen.current.get(job.aiJobId);
      if (before !== undefined && before !== job.status) {
        changes.push(`${photoName(job.originalImageId)}: ${STAGING_MESSAGES[locale].status[job.status]}`);
        if (isTerminalJobStatus(job.status)) settled = true;
      }
      seen.current.set(job.aiJobId, job.status);
    }
    if (changes.length > 0) setAnnouncement(changes.join('. '));
    if (settled) {
      void queryClient.invalidateQueries({ queryKey: trpc.property.get.queryKey({ propertyId }) });
      void queryClient.invalidateQueries({ queryKey: trpc.property.list.queryKey() });
    }
  }, [items, propertyId, queryClient, trpc, locale, photoName]);

  return (
    <section className="card section" aria-labelledby={`${id}-title`} lang={locale} data-testid="jobs-panel">
      <h2 id={`${id}-title`}>{m.jobsTitle}</h2>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {jobs.isError && (
        <p className="alert alert-error" role="alert">
          {errorSentence(jobs.error)}
        </p>
      )}
      {jobs.isPending && <p role="status">…</p>}
      {jobs.isSuccess && items.length === 0 && <p className="muted">{m.jobsEmpty}</p>}
      {items.length > 0 && (
        <ul className="job-list">
          {items.map((job) => (
            <JobRow key={job.aiJobId} job={job} photo={photoName(job.originalImageId)} locale={locale} now={now} />
          ))}
        </ul>
      )}
    </section>
  );
}
