'use client';

import { useMutation } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { useTRPCClient } from '@/client/trpc';
import { useErrorSentence } from '@/client/use-error-sentence';
import type { ReviewVariant } from './review-data';
import { useDescribeVariant } from './use-describe-variant';
import type { ReviewActionDeps } from './use-review-outcome';

/** Bulk approval: confirmed in a dialog first, sent at once. */
export function useBulkApprove({
  advancePast,
  report,
  refresh,
}: ReviewActionDeps) {
  const client = useTRPCClient();
  const t = useTranslations('review');
  const errorSentence = useErrorSentence();
  const describe = useDescribeVariant();
  const [confirming, setConfirming] = useState<ReviewVariant[] | undefined>();
  const approve = useMutation({
    mutationFn: async (items: ReviewVariant[]) => {
      for (const item of items) await client.ai.approveStagedVariant.mutate({ imageId: item.variant.id });
      return items;
    },
    onSuccess: async (items) => {
      setConfirming(undefined);
      advancePast(items);
      const [only] = items;
      report.announce({
        text: items.length === 1 && only !== undefined ? t('approvedOne', { what: describe(only) }) : t('approvedMany', { count: items.length }),
        retry: [],
      });
      await refresh();
    },
    onError: async (error) => {
      setConfirming(undefined);
      report.announce({ text: errorSentence(error), retry: [], error: true });
      await refresh();
    },
  });
  return {
    /** The items the confirmation asks about, while it is open. */
    confirming,
    ask: (items: ReviewVariant[]) => setConfirming(items),
    cancel: () => setConfirming(undefined),
    confirm: () => approve.mutate(confirming ?? []),
    isPending: approve.isPending,
  };
}
