// Node.js part of src/instrumentation.ts: publishes the web runtime's producer fingerprint to the
// queue store at start and every 30 s (services/parity), so the worker and `pnpm run doctor` can
// compare it with the worker's values.
import { parseWebEnv } from '@staging/config/web';
import { createLogger } from '@staging/platform/logger';
import { createRedis } from '@staging/platform/queues';
import { startProducerFingerprintPublisher } from '@staging/services/parity/producer-parity';

export function startProducerParityPublisher(): void {
  let config: ReturnType<typeof parseWebEnv>;
  try {
    config = parseWebEnv(process.env);
  } catch {
    // Reported by the app itself on first use, with every problem listed.
    return;
  }
  const logger = createLogger({ service: 'web', level: config.logLevel });
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
