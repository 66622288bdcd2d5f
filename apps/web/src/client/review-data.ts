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

// Places move as other jobs start, which the live stream does not announce: re-read while some wait.
const START_LINE_REFRESH_MS = 5_000;

/** The agent's photos waiting for a start slot and when the first should start, for the same badge. */
export function useStartLine(): RouterOutputs['ai']['startLine'] | undefined {
  const trpc = useTRPC();
  const poll = usePollInterval();
  return useQuery(
    trpc.ai.startLine.queryOptions(undefined, {
      refetchInterval: (query) => ((query.state.data?.waiting ?? 0) > 0 ? START_LINE_REFRESH_MS : poll()),
      staleTime: 2_000,
    }),
  ).data;
}
