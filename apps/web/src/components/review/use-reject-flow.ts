'use client';

import { useMutation } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useCallback, useRef, useState } from 'react';
import { useTRPCClient } from '@/client/trpc';
import type { ReviewVariant } from './review-data';
import { useDescribeVariant } from './use-describe-variant';
import type { ReviewActionDeps } from './use-review-outcome';

/** The rejection (or take-down) being confirmed: one variant, or the bulk selection. */
export interface RejectRequest {
  items: ReviewVariant[];
  takeDown: boolean;
}

/**
 * A rejection or take-down: asked in a dialog with a reason (required for a take-down), then
 * sent; rejected variants with a style can be staged again from the outcome.
 */
export function useRejectFlow({
  advancePast,
  report,
  refresh,
}: ReviewActionDeps) {
  const client = useTRPCClient();
  const t = useTranslations('review');
  const describe = useDescribeVariant();
  const [request, setRequest] = useState<RejectRequest | undefined>();
  const [reason, setReason] = useState('');
  // A take-down pressed without a reason: said under the field, which keeps the focus.
  const [reasonMissing, setReasonMissing] = useState(false);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const reject = useMutation({
    mutationFn: async ({ items, reason: why }: { items: ReviewVariant[]; reason: string }) => {
      for (const item of items) await client.ai.rejectStagedVariant.mutate({ imageId: item.variant.id, ...(why === '' ? {} : { reason: why }) });
      return items;
    },
    onSuccess: async (items) => {
      const takeDown = request?.takeDown === true;
      setRequest(undefined);
      setReason('');
      advancePast(items);
      const [only] = items;
      const what = items.length === 1 && only !== undefined ? describe(only) : t('variants', { count: items.length });
      report.announce({
        text: takeDown ? t('tookDown', { what }) : t('rejected', { what }),
        retry: items.filter((item) => item.original !== undefined && item.variant.canonicalStyle !== null),
      });
      await refresh();
    },
  });

  const open = useCallback((items: ReviewVariant[], takeDown: boolean) => {
    reject.reset();
    setReason('');
    setReasonMissing(false);
    setRequest({ items, takeDown });
  }, [reject]);

  return {
    request,
    open,
    cancel: () => setRequest(undefined),
    reason,
    reasonMissing,
    reasonRef,
    changeReason: (next: string) => {
      setReason(next);
      setReasonMissing(false);
    },
    confirm: () => {
      if (request?.takeDown === true && reason.trim() === '') {
        setReasonMissing(true);
        reasonRef.current?.focus();
        return;
      }
      reject.mutate({ items: request?.items ?? [], reason: reason.trim() });
    },
    isPending: reject.isPending,
    error: reject.isError ? reject.error : undefined,
  };
}

export type RejectFlow = ReturnType<typeof useRejectFlow>;
