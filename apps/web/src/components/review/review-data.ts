'use client';

import { useQueries, useQuery } from '@tanstack/react-query';
import type { RouterOutputs } from '@staging/trpc/root';
import { usePollInterval } from '@/client/live-status';
import { useTRPC } from '@/client/trpc';
import { usePhotoNaming } from '@/client/use-photo-naming';

type AgentProperty = RouterOutputs['property']['get'];
type AgentImage = AgentProperty['images'][number];

/** A staged variant with what the review page shows beside it. */
export interface ReviewVariant {
  property: AgentProperty;
  variant: AgentImage;
  original: AgentImage | undefined;
  name: string;
}

/**
 * Staged variants of the agent's owned and assigned properties (review is theirs, an admin's
 * support access cannot approve): those waiting for review and those already published.
 */
export function useReviewVariants() {
  const trpc = useTRPC();
  const { photoName } = usePhotoNaming();
  const poll = usePollInterval();
  const list = useQuery(trpc.property.list.queryOptions({ limit: 100 }, { refetchInterval: poll(), staleTime: 5_000 }));
  const withVariants = (list.data?.items ?? []).filter(
    (property) => property.relation !== 'ADMIN' && property.review.pendingReview + property.review.approved > 0,
  );
  const details = useQueries({
    // Polled as well while the stream is not live: a new variant of a property already listed
    // changes its counts in the list, not the list's members, so only this query shows it.
    queries: withVariants.map((property) => trpc.property.get.queryOptions({ propertyId: property.id }, { refetchInterval: poll() })),
  });
  const variants: ReviewVariant[] = details.flatMap((query) => {
    if (query.data === undefined) return [];
    const property = query.data;
    const originals = property.images.filter((image) => !image.isStyled);
    return property.images
      .filter((image) => image.isStyled)
      .map((variant) => ({
        property,
        variant,
        original: originals.find((image) => image.id === variant.styledFromId),
        name: photoName(originals, variant.styledFromId),
      }));
  });
  return {
    list,
    details,
    pending: variants.filter((item) => item.variant.reviewStatus === 'PENDING_REVIEW'),
    approved: variants.filter((item) => item.variant.reviewStatus === 'APPROVED'),
    loading: list.isPending || details.some((query) => query.isPending),
  };
}
