'use client';

import Link from 'next/link';
import { isCanonicalStyle, styleLabel } from '@staging/domain/styles';
import { useDashboardText } from '@/client/use-dashboard-text';
import { useRoomTypeLabel } from '@/client/use-room-type-label';
import { CANCELABLE, type Job } from './job-history';
import { JobFigures } from './job-figures';
import { JobNotes } from './job-notes';
import { JobResultActions } from './job-result-actions';
import { JobStatusPills } from './job-status-pills';
import type { ResultPair } from './result-dialog';
import { useJobCancel } from './use-job-cancel';

function Thumb({ image, alt }: { image: Job['original']; alt: string }) {
  if (image === null) return <span className="thumb" aria-hidden="true" />;
  return <img className="thumb" src={image.url} alt={alt} width={72} height={48} loading="lazy" />;
}

/** One job of the history: its photos, where it stands, its figures and notes, and what can be done with it. */
export function JobRow({
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
  const { t, tc, locale } = useDashboardText('jobs');
  const roomTypeLabel = useRoomTypeLabel();
  const cancel = useJobCancel(job);
  const batchId = job.submissionId;
  const style = job.canonicalStyle !== null && isCanonicalStyle(job.canonicalStyle) ? styleLabel(job.canonicalStyle, locale) : job.canonicalStyle;
  const room = roomTypeLabel(job.roomType);
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
          <JobStatusPills job={job} />
          <JobFigures job={job} />
          <JobResultActions job={job} photo={photo} style={style} hiddenName={hiddenName} onView={onView} />
        </div>
        <JobNotes job={job} cancel={cancel} />
      </div>
      {CANCELABLE.includes(job.status) && (
        <button type="button" className="button button-small" disabled={cancel.isPending} onClick={cancel.start}>
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
