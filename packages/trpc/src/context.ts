import type { Redis } from 'ioredis';
import type { ProducerValues } from '@staging/config/producer-values';
import type { Db } from '@staging/db/client';
import type { RequestLimitOverrides } from '@staging/http-edge/request-limits';
import { requestSourceOfHeaders } from '@staging/http-edge/request-source';
import type { Logger } from '@staging/platform/logger';
import { parseCookies, SESSION_COOKIE_NAME } from '@staging/services/auth/cookies';
import { resolveSession } from '@staging/services/auth/sessions';
import type { ResolvedSession } from '@staging/services/auth/sessions';
import type { StagingEventHub } from '@staging/services/live/staging-event-hub';
import type { PublicListingChanged } from '@staging/services/images/request-search-rebuild';
import type { SearchQueue } from '@staging/services/search/search-queue';
import type { Clock } from '@staging/services/staging/staging-deps';
import type { StagingQueue } from '@staging/services/staging/staging-queue';

/** Staging settings the submission procedures read (from the web/api config). */
export interface StagingSettings {
  /** AI_ROOM_STAGING_ENABLED === 'true'. */
  enabled: boolean;
  /** AI_DAILY_PURCHASE_CAP (null: no cap); the spend page shows today's purchases against it. */
  dailyPurchaseCap: number | null;
  producer: ProducerValues;
  /** Last instant legacy style aliases are accepted (AI_STAGING_LEGACY_ALIAS_SUNSET_AT). */
  legacyAliasSunsetAt: Date;
  /** PROVIDER_MODEL persisted with every submitted job. */
  providerModel: string;
}

/**
 * Everything a procedure may touch, built once per process by apps/api or apps/web and shared by
 * all requests. Every I/O boundary is injected here, the clock included, so tests run the real
 * procedures against real Postgres/Redis with their own values.
 */
export interface TrpcDeps {
  db: Db;
  /** ioredis connection to the queue store (VALKEY_URL): rate limits live here. */
  redis: Redis;
  logger: Logger;
  clock: Clock;
  /** QUEUE_SUFFIX: namespaces every queue and Redis key of this deployment (may be empty). */
  queueSuffix: string;
  /**
   * Browser origins (e.g. `https://app.example.com`) allowed to send cookie-authenticated
   * mutations, besides the request's own host. See `@staging/http-edge/origin-check`.
   */
  allowedOrigins: readonly string[];
  /** TRUSTED_PROXY_HOPS: which X-Forwarded-* headers name the request's host (`@staging/http-edge/request-source`). */
  trustedProxyHops: number;
  /**
   * Rate-limit window in seconds. Tests only (to watch a window end); production leaves it unset
   * and gets the 60 seconds of docs/system.md 4.4. Same code path either way.
   */
  rateLimitWindowSeconds?: number;
  /**
   * Points replacing entries of the request-limit table. Tests only: to reach a limit in a few
   * calls, or to call a procedure more often than a person would.
   */
  requestLimitOverrides?: RequestLimitOverrides;
  staging: StagingSettings;
  /** ai-staging<QUEUE_SUFFIX>: submission adds, cancel removes or wakes (ai router). */
  stagingQueue: StagingQueue;
  /** search-indexing<QUEUE_SUFFIX>: approval and rejection rebuild the search document. */
  searchQueue: SearchQueue;
  /** The web's cache of the public pages, told of each change a procedure makes to one (requestSearchRebuild). */
  publicListingChanged?: PublicListingChanged | undefined;
  /** The process's live staging events (ai.stagingEvents); it connects with the first stream. */
  stagingEvents: StagingEventHub;
}

export interface TrpcContext {
  deps: TrpcDeps;
  /** Request headers (Origin / Sec-Fetch-Site for the cross-site check). */
  headers: Headers;
  /** The session of the `sid` cookie, or null when absent, unknown or expired. */
  session: ResolvedSession | null;
  /** The caller's address, which anonymous procedures count their limits by. */
  clientAddress: string;
}

/**
 * Builds the per-request context; the session is resolved from the `cookie` header. A transport
 * that knows the client address better than the headers do (Express's `req.ip` in the api)
 * passes it; otherwise it is read from X-Forwarded-For, as the web's sign-in reads it.
 */
export async function createTrpcContext({
  deps,
  headers,
  clientAddress,
}: {
  deps: TrpcDeps;
  headers: Headers;
  clientAddress?: string;
}): Promise<TrpcContext> {
  const token = parseCookies(headers.get('cookie')).get(SESSION_COOKIE_NAME);
  const session = token === undefined ? null : await resolveSession(deps.db, token, deps.clock.now());
  return { deps, headers, session, clientAddress: clientAddress ?? requestSourceOfHeaders(headers, deps.trustedProxyHops).clientIp ?? 'unknown' };
}
