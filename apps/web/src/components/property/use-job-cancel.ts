'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { purchaseSummary } from '@staging/domain/job-outcome';
import type { RouterOutputs } from '@staging/trpc/root';
import { useTRPC } from '@/client/trpc';
import { CANCELABLE, type Job, type JobsTranslator } from './job-history';

type CancelResult = RouterOutputs['ai']['cancelStaging'];

/** What a cancel bought, in the agent's words (docs/system.md: estimates only, never a charge). */
function cancelSentence(job: Pick<CancelResult, 'status' | 'attempts'>, t: JobsTranslator): string {
  const { bought, unconfirmed } = purchaseSummary(job.attempts.map((attempt) => attempt.purchase));
  if (job.status === 'CANCEL_REQUESTED') return bought > 0 ? t('cancelRequestedBought', { count: bought }) : t('outcomeCANCEL_REQUESTED');
  if (bought > 0) return t('canceledBought', { count: bought });
  return unconfirmed > 0 ? t('canceledUnconfirmed') : t('canceledNothingBought');
}

export type JobCancel = ReturnType<typeof useJobCancel>;

/** Canceling one job through ai.cancelStaging, and the note that says what the cancel bought. */
export function useJobCancel(job: Job) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const t = useTranslations('jobs');
  const [result, setResult] = useState<CancelResult | undefined>();
  const cancel = useMutation(
    trpc.ai.cancelStaging.mutationOptions({
      onSuccess: setResult,
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.ai.jobHistory.queryKey() }),
    }),
  );
  // The note follows the job once the list has caught up with the cancel ("Cancel requested…" then
  // "Canceled…"); until then it says what the cancel answered. A job that finished before the
  // cancel could stop it shows its outcome instead.
  const note =
    result === undefined
      ? undefined
      : job.status === 'CANCEL_REQUESTED' || job.status === 'CANCELED'
        ? cancelSentence(job, t)
        : CANCELABLE.includes(job.status)
          ? cancelSentence(result, t)
          : undefined;
  return {
    note,
    start: () => cancel.mutate({ aiJobId: job.aiJobId }),
    isPending: cancel.isPending,
    error: cancel.isError ? cancel.error : undefined,
  };
}
