'use client';

import { useMutation } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { STAGING_DISPOSITIONS } from '@staging/domain/dispositions';
import { isRoomType } from '@staging/domain/room-types';
import { useTRPC } from '@/client/trpc';
import type { ReviewVariant } from './review-data';
import type { OutcomeReport } from './use-review-outcome';

/** "Try again" after a rejection: the same originals staged again, each in its rejected style. */
export function useStageAgain({ report, refresh }: { report: OutcomeReport; refresh: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const t = useTranslations('review');
  const tryAgain = useMutation(
    trpc.ai.submitStaging.mutationOptions({
      onSuccess: async (result) => {
        const queued = result.items.filter((item) => item.disposition !== STAGING_DISPOSITIONS.STYLE_EXISTS).length;
        report.announce({
          text: t('stagingAgain', { count: queued }),
          retry: [],
        });
        await refresh();
      },
    }),
  );
  return {
    start: (items: ReviewVariant[]) => {
      tryAgain.mutate({
        assignments: items.flatMap((item) => {
          const roomType = item.variant.roomType ?? item.original?.roomType ?? null;
          if (item.original === undefined || item.variant.canonicalStyle === null || !isRoomType(roomType)) return [];
          return [{ originalImageId: item.original.id, roomType, style: item.variant.canonicalStyle }];
        }),
      });
    },
    isPending: tryAgain.isPending,
    error: tryAgain.isError ? tryAgain.error : undefined,
  };
}
