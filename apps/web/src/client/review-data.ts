'use client';

import { useQuery } from '@tanstack/react-query';
import { usePollInterval } from './live-status';
import { useTRPC } from './trpc';

/**
 * Number of staged variants waiting for this agent's review, for the navigation badge. Only
 * owned and assigned properties count: review is theirs (an admin's support access cannot
 * approve, docs/decisions/api.md "Admin access to properties").
 */
export function usePendingReviewCount(): number | undefined {
  const trpc = useTRPC();
  const poll = usePollInterval();
  const list = useQuery(trpc.property.list.queryOptions({ limit: 100 }, { refetchInterval: poll(), staleTime: 5_000 }));
  if (list.data === undefined) return undefined;
  return list.data.items
    .filter((property) => property.relation !== 'ADMIN')
    .reduce((sum, property) => sum + property.review.pendingReview, 0);
}
