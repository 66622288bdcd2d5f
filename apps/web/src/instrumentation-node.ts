// Node.js part of src/instrumentation.ts: the fatal-error policy shared with api and worker
// (platform/fatal-error), the web runtime's producer fingerprint, published to the queue store
// at start and every 30 s (services/parity) so the worker and `pnpm run doctor` can compare it
// with the worker's values, and the listener that expires cached public pages on a change.
import * as Sentry from '@sentry/nextjs';
import { parseWebEnv } from '@staging/config/web';
import { exitOnFatalError, uncaughtErrorHint } from '@staging/platform/fatal-error';
import { createLogger } from '@staging/platform/logger';
import type { Logger } from '@staging/platform/logger';
import { createRedis } from '@staging/platform/queues';
import { startProducerFingerprintPublisher } from '@staging/services/parity/producer-parity';
import { createSearchQueue, watchSearchRebuilds } from '@staging/services/search/search-queue';
import { revalidatePublicPagesOf } from '@/server/public-page-revalidation';

export function startNodeRuntime(): void {
  let config: ReturnType<typeof parseWebEnv> | null = null;
  try {
    config = parseWebEnv(process.env);
  } catch {
    // Reported by the app itself on first use, with every problem listed.
  }
  const logger = createLogger({ service: 'web', level: config?.logLevel ?? 'info' });
  exitOnFatalError({
    logger,
    report: async (error, origin) => {
      Sentry.captureException(error, uncaughtErrorHint(origin, origin === 'uncaughtException'));
      await Sentry.flush(2_000);
    },
    // React Server Components leave promises unawaited by design (a prefetch a render turns out
    // not to need), and Next.js keeps serving after their rejections; so do we, once reported.
    unhandledRejection: 'report',
  });
  if (config !== null) {
    startProducerParityPublisher(config, logger);
    startPublicPageRevalidation(config, logger);
  }
}

/**
 * Every rebuilt search document means a listing changed for visitors: its cached pages expire
 * then, after the change committed and with the search index already showing it.
 */
function startPublicPageRevalidation(config: ReturnType<typeof parseWebEnv>, logger: Logger): void {
  // `next start` puts the port it listens on here; loopback reaches it whichever address it binds.
  const origin = `http://127.0.0.1:${process.env.PORT ?? '3000'}`;
  const onError = (error: Error) => logger.warn({ err: error }, 'queue store connection error (public page revalidation)');
  watchSearchRebuilds(
    {
      connection: createRedis(config.valkeyUrl, { role: 'worker', connectionName: 'web-public-pages', onError }),
      queue: createSearchQueue(createRedis(config.valkeyUrl, { role: 'producer', connectionName: 'web-public-pages-jobs', onError }), config.queueSuffix),
      logger,
    },
    (propertyId) => revalidatePublicPagesOf(origin, propertyId, logger),
  );
}

function startProducerParityPublisher(config: ReturnType<typeof parseWebEnv>, logger: Logger): void {
  const redis = createRedis(config.valkeyUrl, {
    role: 'producer',
    connectionName: 'web-parity',
    onError: (error) => logger.warn({ err: error }, 'queue store connection error (producer parity)'),
  });
  startProducerFingerprintPublisher({
    redis,
    role: 'web',
    values: config.producer,
    queueSuffix: config.queueSuffix,
    logger,
  });
}
