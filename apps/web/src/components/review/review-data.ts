'use client';

import type { RouterOutputs } from '@staging/trpc/root';
import { usePollInterval } from '@/client/live-status';
import { useTRPC } from '@/client/trpc';
import { useCursorPages } from '@/client/use-cursor-pages';
import { usePhotoNaming } from '@/client/use-photo-naming';

type ReviewVariantRow = RouterOutputs['ai']['reviewVariants']['items'][number];
type ReviewStatus = ReviewVariantRow['variant']['reviewStatus'] & string;

/** A staged variant with what the review page shows beside it. */
export interface ReviewVariant {
  property: ReviewVariantRow['property'];
  variant: ReviewVariantRow['variant'];
  original: ReviewVariantRow['variant'] | undefined;
  name: string;
}

/**
 * The variants in one review state, newest first, a page at a time (ai.reviewVariants): the first
 * page polled, further pages added by `more` while there are some.
 */
function useVariantPages(reviewStatus: ReviewStatus) {
  const trpc = useTRPC();
  const poll = usePollInterval();
  const { originalName } = usePhotoNaming();
  const { first, pages, more } = useCursorPages((cursor) =>
    trpc.ai.reviewVariants.queryOptions({ reviewStatus, ...(cursor === undefined ? {} : { cursor }) }, { refetchInterval: poll(), staleTime: 5_000 }),
  );
  const items = pages.flatMap((page) =>
    (page.data?.items ?? []).map(
      (row): ReviewVariant => ({
        property: row.property,
        variant: row.variant,
        original: row.original ?? undefined,
        name: originalName(row.original ?? undefined, row.originalNumber ?? 0),
      }),
    ),
  );
  return { first, pages, items, more };
}

/**
 * Staged variants of the agent's owned and assigned properties (review is theirs, an admin's
 * support access cannot approve): those waiting for review and those already published.
 */
export function useReviewVariants() {
  const pending = useVariantPages('PENDING_REVIEW');
  const approved = useVariantPages('APPROVED');
  const details = [...pending.pages, ...approved.pages];
  return {
    list: pending.first,
    details,
    pending: pending.items,
    approved: approved.items,
    morePending: pending.more,
    moreApproved: approved.more,
    loading: details.some((query) => query.isPending),
  };
}
