'use client';

import { useQuery } from '@tanstack/react-query';
import type { RouterOutputs } from '@staging/trpc/root';
import { usePollInterval } from './live-status';
import { useTRPC } from './trpc';

/**
 * Number of staged variants waiting for this agent's review, for the navigation badge, counted
 * up to a cap (`isLowerBound`: "99+"). Only owned and assigned properties count: review is theirs
 * (an admin's support access cannot approve, docs/decisions/api.md "Admin access to properties").
 */
export function usePendingReviewCount(): RouterOutputs['ai']['pendingReviewCount'] | undefined {
  const trpc = useTRPC();
  const poll = usePollInterval();
  return useQuery(trpc.ai.pendingReviewCount.queryOptions(undefined, { refetchInterval: poll(), staleTime: 5_000 })).data;
}
