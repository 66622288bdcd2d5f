'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useEffect, useRef, useState } from 'react';
import { isTerminalJobStatus } from '@staging/domain/staging-states';
import { useTRPC } from '@/client/trpc';
import { jobPhotoName, type Job, type PhotoNameOf } from './job-history';

/**
 * What follows a job's outcome changing on the page. A job that just finished produced (or,
 * canceled, removed) a variant: the photos are read again. Screen-reader users, who do not see
 * the status pill change, are told in the sentence this returns.
 */
export function useJobOutcomeChanges(items: Job[], photoName: PhotoNameOf | undefined): string {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const t = useTranslations('jobs');
  const seen = useRef(new Map<string, Job['outcome']>());
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    let settled = false;
    const changes: string[] = [];
    for (const job of items) {
      const before = seen.current.get(job.aiJobId);
      if (before !== undefined && before !== job.outcome) {
        changes.push(`${jobPhotoName(job, t, photoName)}: ${t(`outcome${job.outcome}`)}`);
        if (isTerminalJobStatus(job.status)) settled = true;
      }
      seen.current.set(job.aiJobId, job.outcome);
    }
    if (changes.length > 0) setAnnouncement(changes.join('. '));
    if (settled) {
      void queryClient.invalidateQueries({ queryKey: trpc.property.get.queryKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.property.list.queryKey() });
    }
  }, [items, queryClient, trpc, t, photoName]);
  return announcement;
}
