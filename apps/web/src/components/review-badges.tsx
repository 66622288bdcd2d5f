'use client';

import { useTranslations } from 'next-intl';
import type { RouterOutputs } from '@staging/trpc/root';

/**
 * The count of variants waiting for review and, beside it, the photos still waiting to start on
 * their way there. The header shows them on the Menu button (phones) and on the Review link: the
 * same counts, one of each tested by id (`onLink`).
 */
export function ReviewBadges({
  pending,
  line,
  onLink,
}: {
  pending: RouterOutputs['ai']['pendingReviewCount'] | undefined;
  line: RouterOutputs['ai']['startLine'] | undefined;
  onLink: boolean;
}) {
  const t = useTranslations('agentHeader');
  const lineText =
    line !== undefined && line.waiting > 0
      ? line.next === null
        ? t('waitingToStart', { count: line.waiting })
        : t('waitingToStartNext', { count: line.waiting, position: line.next.position, at: new Date(line.next.expectedStartAt) })
      : undefined;
  return (
    <>
      {pending !== undefined && pending.pending > 0 && (
        <span className="badge" data-testid={onLink ? 'review-count' : undefined}>
          {pending.isLowerBound ? t('countAtLeast', { count: pending.pending }) : pending.pending}
          <span className="visually-hidden"> {t('waitingForReview', { count: pending.pending })}</span>
        </span>
      )}
      {line !== undefined && lineText !== undefined && (
        <span className="badge badge-neutral" title={lineText} data-testid={onLink ? 'start-line-count' : undefined} data-position={line.next?.position}>
          {t('inLine', { count: line.isLowerBound ? t('countAtLeast', { count: line.waiting }) : String(line.waiting) })}
          <span className="visually-hidden"> {lineText}</span>
        </span>
      )}
    </>
  );
}
