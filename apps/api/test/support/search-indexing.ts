// The search-indexing processor the worker app mounts, run beside a test's api on a connection of
// its own, so that public reads see the documents the api's changes queue.
import { createRedis } from '@staging/platform/queues';
import { createSearchIndexingWorker } from '@staging/services/search/search-queue';
import type { ApiHarness } from './api-test-kit';

export interface SearchIndexing {
  /** Resolves once every search rebuild queued so far has run. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

export function startSearchIndexing(api: ApiHarness, connectionName: string): SearchIndexing {
  const connection = createRedis(api.config.valkeyUrl, { role: 'worker', connectionName });
  const worker = createSearchIndexingWorker({
    db: api.db,
    redis: api.redis,
    queueSuffix: api.config.queueSuffix,
    logger: api.deps.logger,
    captureAlert: () => undefined,
    connection,
  });
  return {
    async drain() {
      for (let i = 0; i < 200; i += 1) {
        const counts = await api.searchQueue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
        if (Object.values(counts).every((n) => n === 0)) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error('search queue did not drain');
    },
    async close() {
      await worker.close();
      await connection.quit();
    },
  };
}
