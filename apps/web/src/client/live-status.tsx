'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTRPC } from './trpc';

interface LiveStatus {
  /** The stream is connected and has caught up: queries it covers need no polling. */
  isLive: boolean;
  /** How often a page polls while the stream is not live (DASHBOARD_POLL_SECONDS). */
  pollMs: number;
}

const LiveStatusContext = createContext<LiveStatus | null>(null);

/**
 * A refused or failed stream (too many tabs, signed out, a proxy without streaming), or one the
 * server ended (shutting down), is tried again this much later; the pages poll meanwhile.
 */
const RETRY_FAILED_STREAM_MS = 60_000;

/** Changes arriving this close together are refetched once: a bulk review announces every image. */
const COALESCE_MS = 200;

/**
 * Keeps every dashboard query that shows a job or an image fresh from the server's live stream
 * (ai.stagingEvents): on a change of a property, that property, the property list (the review
 * badge), the job lists and the spend summary are read again; on a resync, all of them. Refetching
 * replaces data in place, so nothing moves focus or scrolls. While the stream is not live the
 * pages fall back to polling (see {@link usePollInterval}).
 */
export function LiveStatusProvider({ pollSeconds, children }: { pollSeconds: number; children: ReactNode }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [isLive, setLive] = useState(false);
  // Property ids to refresh at the end of the coalescing window; null: every property.
  const due = useRef<Set<string> | null | undefined>(undefined);

  const refresh = (propertyId: string | null) => {
    if (due.current === undefined) {
      due.current = new Set();
      setTimeout(() => {
        const properties = due.current;
        due.current = undefined;
        const keys =
          properties === null || properties === undefined
            ? [trpc.property.get.queryKey()]
            : [...properties].map((id) => trpc.property.get.queryKey({ propertyId: id }));
        const lists = [trpc.property.list.queryKey(), trpc.ai.jobHistory.queryKey(), trpc.ai.spendSummary.queryKey(), trpc.ai.reviewVariants.queryKey(), trpc.ai.pendingReviewCount.queryKey(), trpc.ai.startLine.queryKey()];
        for (const queryKey of [...keys, ...lists]) {
          void queryClient.invalidateQueries({ queryKey });
        }
      }, COALESCE_MS);
    }
    if (propertyId === null) due.current = null;
    else due.current?.add(propertyId);
  };

  const subscription = useSubscription(
    trpc.ai.stagingEvents.subscriptionOptions(undefined, {
      onData: (event) => {
        if (event.kind === 'resync') {
          setLive(true);
          refresh(null);
        } else {
          refresh(event.propertyId);
        }
      },
      onConnectionStateChange: (state) => {
        if (state.state !== 'pending') setLive(false);
      },
      onError: () => setLive(false),
    }),
  );
  const { status, reset } = subscription;
  useEffect(() => {
    if (status !== 'error' && status !== 'idle') return;
    const timer = setTimeout(reset, RETRY_FAILED_STREAM_MS);
    return () => clearTimeout(timer);
  }, [status, reset]);

  const value = useMemo(() => ({ isLive, pollMs: pollSeconds * 1_000 }), [isLive, pollSeconds]);
  return <LiveStatusContext.Provider value={value}>{children}</LiveStatusContext.Provider>;
}

export function useLiveStatus(): LiveStatus {
  const status = useContext(LiveStatusContext);
  if (status === null) throw new Error('useLiveStatus needs a LiveStatusProvider above it');
  return status;
}

/**
 * The refetch interval of a query the live stream keeps fresh: none while the stream is live,
 * else DASHBOARD_POLL_SECONDS, or a tenth of it with `urgent` (a job on the page is running).
 */
export function usePollInterval(): (urgent?: boolean) => number | false {
  const { isLive, pollMs } = useLiveStatus();
  return (urgent = false) => (isLive ? false : urgent ? pollMs / 10 : pollMs);
}
