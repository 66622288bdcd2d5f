'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, httpLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { useState, type ReactNode } from 'react';
import type { AppRouter } from '@staging/trpc/root';
import { trpcErrorDataOf } from '@/lib/error-payloads';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/**
 * A request the server never answers would leave its page on "Loading…" for good; after this long
 * it fails like any network error, so the page shows its error state and a retry.
 */
const REQUEST_TIMEOUT_MS = 20_000;

const fetchWithTimeout: typeof fetch = (input, init) => {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const signal = init?.signal == null ? timeout : AbortSignal.any([init.signal, timeout]);
  return fetch(input, { ...init, signal });
};

/**
 * A call that must reach the server even if the page is closing (`context: { keepalive: true }`):
 * sent on its own at once with fetch's keepalive, which outlives the page. A batch would wait for
 * a timer the closing page never runs.
 */
const fetchKeepalive: typeof fetch = (input, init) => fetchWithTimeout(input, { ...init, keepalive: true });

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        refetchOnWindowFocus: false,
        // A 4xx will not change by asking again (and a retried 429 burns the rate limit further);
        // network blips and 5xx get two more tries.
        retry: (failureCount, error) => {
          const status = trpcErrorDataOf(error)?.httpStatus;
          return failureCount < 2 && (status === undefined || status >= 500);
        },
      },
      mutations: { retry: false },
    },
  });
}

/** React Query + the tRPC client for the agent dashboard, calling this app's /api/trpc. */
export function TrpcProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        splitLink({
          // Live streams are Server-Sent Events, sent with the session cookie like any same-origin
          // request (EventSource cannot time out a stream; the server's pings let it notice silence).
          condition: (op) => op.type === 'subscription',
          true: httpSubscriptionLink({ url: '/api/trpc' }),
          false: splitLink({
            condition: (op) => op.context.keepalive === true,
            true: httpLink({ url: '/api/trpc', fetch: fetchKeepalive }),
            // Batches stay well below the server's limit of 20 calls per request.
            false: httpBatchLink({ url: '/api/trpc', maxItems: 10, fetch: fetchWithTimeout }),
          }),
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
