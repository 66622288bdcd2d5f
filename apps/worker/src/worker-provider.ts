import type { WorkerConfig } from '@staging/config/worker';
import type { Logger } from '@staging/platform/logger';
import type { QueueNames } from '@staging/platform/queues';
import { createProviderClient } from '@staging/provider/provider-client';
import type { ProviderClient } from '@staging/provider/provider-client';
import type { ProviderClock } from '@staging/services/staging/provider-clock';
import type { Redis } from 'ioredis';
import { measureFromResponseDates } from './staging/provider-clock-measure';
import { createReadBudget, readBudgetKey, withReadBudget } from './staging/provider-read-budget';

/**
 * The provider as this worker calls it: the injected client or one from config whose response
 * dates measure the provider's clock, behind the read budget every worker shares.
 */
export function createWorkerProvider(
  config: WorkerConfig,
  {
    injected,
    redis,
    names,
    providerClock,
    logger,
  }: { injected: ProviderClient | undefined; redis: Redis; names: QueueNames; providerClock: ProviderClock; logger: Logger },
): ProviderClient {
  return withReadBudget(
    injected ??
      createProviderClient({
        baseUrl: config.providerApiBaseUrl,
        token: config.providerApiToken,
        onResponseDate: measureFromResponseDates(providerClock, logger),
      }),
    createReadBudget({ redis, key: readBudgetKey(names.staging), limitPerMinute: config.providerReadLimitPerMinute }),
  );
}
