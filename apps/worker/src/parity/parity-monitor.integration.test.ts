import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ProducerValues } from '@staging/config/producer-values';
import { producerValuesFingerprint } from '@staging/config/producer-values';
import type { Alert } from '@staging/platform/error-tracker';
import { createRedis } from '@staging/platform/queues';
import {
  listLiveProducerFingerprints,
  producerParityKey,
  publishProducerFingerprint,
} from '@staging/services/parity/producer-parity';
import type { ProducerRole } from '@staging/services/parity/producer-parity';
import { memoryLogger } from '@staging/services/staging/testing/staging-test-kit';
import { startParityMonitor } from './parity-monitor';
import type { ParityMonitor } from './parity-monitor';

const WORKER_VALUES: ProducerValues = {
  quality: 'medium',
  aspectRatio: '1:1',
  outputFormat: 'jpeg',
  outputCompression: 92,
};
const DRIFTED: ProducerValues = { ...WORKER_VALUES, outputCompression: 80 };

let redis: Redis;
let suffix: string;
let monitor: ParityMonitor;
let alerts: Alert[];
let log: ReturnType<typeof memoryLogger>;

beforeAll(() => {
  redis = createRedis(process.env.VALKEY_URL ?? 'redis://127.0.0.1:6379', {
    role: 'worker',
    connectionName: 'parity-test',
  });
});

beforeEach(async () => {
  suffix = `${process.env.QUEUE_SUFFIX ?? ''}-p${randomBytes(4).toString('hex')}`;
  alerts = [];
  log = memoryLogger();
  monitor = startParityMonitor({
    redis,
    values: WORKER_VALUES,
    queueSuffix: suffix,
    logger: log.logger,
    captureAlert: (alert) => alerts.push(alert),
    instanceId: 'worker-under-test',
    intervalMs: 3_600_000,
  });
  // The worker publishes its own entry at start.
  await expectEventually(async () =>
    (await listLiveProducerFingerprints(redis, suffix)).some((e) => e.role === 'worker'),
  );
});

afterEach(async () => {
  await monitor.stop();
  await redis.del(producerParityKey(suffix));
});

afterAll(() => {
  redis.disconnect();
});

async function expectEventually(check: () => Promise<boolean>): Promise<void> {
  // Only a hang guard: the check is an event (an alert, a cleared state), however slow the machine.
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function publish(role: ProducerRole, instanceId: string, values: ProducerValues): Promise<void> {
  await publishProducerFingerprint(redis, { role, instanceId, values, queueSuffix: suffix });
}

describe('producer parity monitor', () => {
  it('stays quiet while every producer matches the worker', async () => {
    await publish('api', 'api-1', WORKER_VALUES);
    await publish('web', 'web-1', { ...WORKER_VALUES });
    await monitor.runNow();
    expect(alerts).toEqual([]);
  });

  it('raises one alert per differing producer, tagged and logged, and again only after it was fixed and drifted anew', async () => {
    await publish('api', 'api-1', WORKER_VALUES);
    await publish('web', 'web-7', DRIFTED);
    await monitor.runNow();
    await monitor.runNow();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      level: 'error',
      tags: {
        errorCode: 'PRODUCER_PARITY_MISMATCH',
        producerRole: 'web',
        producerInstance: 'web-7',
        fingerprint: producerValuesFingerprint(DRIFTED),
        workerFingerprint: producerValuesFingerprint(WORKER_VALUES),
      },
      extra: { values: DRIFTED, workerValues: WORKER_VALUES },
    });
    expect(log.events('producer_parity.mismatch')).toMatchObject([{ role: 'web', instanceId: 'web-7' }]);

    await publish('web', 'web-7', WORKER_VALUES);
    await monitor.runNow();
    expect(log.events('producer_parity.restored')).toHaveLength(1);
    await publish('web', 'web-7', DRIFTED);
    await monitor.runNow();
    expect(alerts).toHaveLength(2);
  });

  it('compares other worker replicas too', async () => {
    await publish('worker', 'worker-2', DRIFTED);
    await monitor.runNow();
    expect(alerts.map((a) => a.tags['producerInstance'])).toEqual(['worker-2']);
  });
});
