'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/client/trpc';

/** After a review: the queue, its count in the menu, and the pages that show the variants read again. */
export function useReviewRefresh(): () => Promise<unknown> {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.ai.reviewVariants.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.ai.pendingReviewCount.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.property.get.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.property.list.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.ai.jobHistory.queryKey() }),
    ]);
}
