'use client';

import { useQuery } from '@tanstack/react-query';
import type { useTranslations } from 'next-intl';
import { useState } from 'react';
import { isTerminalJobStatus, type JobStatus } from '@staging/domain/staging-states';
import type { RouterOutputs } from '@staging/trpc/root';
import { usePollInterval } from '@/client/live-status';
import { useTRPC } from '@/client/trpc';

export type Job = RouterOutputs['ai']['jobHistory']['items'][number];
export type JobsTranslator = ReturnType<typeof useTranslations<'jobs'>>;
/** The property's own name for one of its photos ("Photo 2"). */
export type PhotoNameOf = (imageId: string | null) => string;

const PAGE_SIZE = 10;

const PLACE_IN_LINE_REFRESH_MS = 2_000;

// A cancel is accepted while the job has not settled and none was requested yet (a repeat cancel
// is harmless on the server, but offering it twice would only confuse).
export const CANCELABLE: readonly JobStatus[] = ['PENDING', 'PROCESSING', 'RETRYING'];

/**
 * The file name is how the agent knows a photo; the property's own naming ("Photo 2") covers
 * photos stored before names were kept, and the property title the rest.
 */
export function jobPhotoName(job: Job, t: JobsTranslator, photoName: PhotoNameOf | undefined): string {
  return job.original?.fileName ?? photoName?.(job.originalImageId) ?? t('photoOf', { title: job.propertyTitle });
}

/**
 * The page of the staging history the panel shows, with the cursors that page through it and the
 * batch it is narrowed to. One property's jobs with `propertyId`, every managed property's without.
 */
export function useJobHistory(propertyId: string | undefined) {
  const trpc = useTRPC();
  const poll = usePollInterval();
  // Cursors of the pages before the current one; keyset pages cannot be addressed by number.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  // One submission's jobs together (its batch), or every job.
  const [batch, setBatch] = useState<string | undefined>();
  const jobs = useQuery(
    trpc.ai.jobHistory.queryOptions(
      {
        limit: PAGE_SIZE,
        ...(propertyId === undefined ? {} : { propertyId }),
        ...(batch === undefined ? {} : { submissionId: batch }),
        ...(cursor === undefined ? {} : { cursor }),
      },
      {
        staleTime: 0,
        placeholderData: (previous) => previous,
        // Without the live stream: often while a job on the page runs, slower once all are
        // settled (a review elsewhere still shows).
        // A place in line moves whenever anybody's job starts, which the live stream only tells
        // the owners of that job: while one waits, read again every couple of seconds.
        refetchInterval: (query) => {
          const items = query.state.data?.items ?? [];
          if (items.some((job) => job.placeInLine !== null)) return PLACE_IN_LINE_REFRESH_MS;
          return poll(items.some((job) => !isTerminalJobStatus(job.status)));
        },
      },
    ),
  );
  return {
    jobs,
    items: jobs.data?.items ?? [],
    cursors,
    setCursors,
    batch,
    /** One submission's jobs, or every job again (undefined), from the first page. */
    showBatch: (submissionId: string | undefined) => {
      setBatch(submissionId);
      setCursors([undefined]);
    },
  };
}
