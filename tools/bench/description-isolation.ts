// Bench: description latency with ai-staging idle vs saturated (SPEC.md 6: staging activity must
// not delay description jobs). Creates its own migrated database and queue suffix on the local
// PostgreSQL/Redis, runs the same measurement as the worker's integration test with more samples,
// prints the numbers and the ratio, and drops the database.
//
//   npx tsx tools/bench/description-isolation.ts [stagingJobs=120] [samples=30] [rateLimitPerMinute=10000] [simCompletionDelayMs=2000]
import { randomBytes } from 'node:crypto';
import { createTestDatabase } from '../../packages/db/src/testing';

const stagingJobs = Number(process.argv[2] ?? 120);
const samples = Number(process.argv[3] ?? 30);
const stagingRateLimitPerMinute = Number(process.argv[4] ?? 10_000);
const simCompletionDelayMs = Number(process.argv[5] ?? 2_000);

const database = await createTestDatabase();
// The worker test stack reads these like a Jest run's global setup provides them.
process.env.DATABASE_URL = database.url;
process.env.VALKEY_URL ??= 'redis://127.0.0.1:6379';
process.env.QUEUE_SUFFIX = `-bench${randomBytes(4).toString('hex')}`;

try {
  const { measureDescriptionIsolation } = await import('../../apps/worker/src/description/isolation-measure');
  const started = performance.now();
  const result = await measureDescriptionIsolation({
    stagingJobs,
    samples,
    stagingConcurrency: 4,
    descriptionConcurrency: 2,
    stagingRateLimitPerMinute,
    simCompletionDelayMs,
  });
  const f = (ms: number) => `${ms.toFixed(1)} ms`;
  console.log(
    `staging jobs: ${result.stagingJobs} (concurrency ${result.stagingConcurrency}, ${stagingRateLimitPerMinute}/min, provider ${simCompletionDelayMs} ms); description samples: ${samples} per phase`,
  );
  for (const [name, phase] of [
    ['idle', result.idle],
    ['saturated', result.saturated],
  ] as const) {
    console.log(
      `${name.padEnd(10)} end-to-end p50 ${f(phase.endToEnd.p50Ms)} p90 ${f(phase.endToEnd.p90Ms)} max ${f(phase.endToEnd.maxMs)} | ` +
        `queue pickup p50 ${f(phase.pickup.p50Ms)} max ${f(phase.pickup.maxMs)} | event-loop delay p50 ${f(phase.eventLoopDelayP50Ms)}`,
    );
  }
  console.log(
    `min ai-staging backlog during saturated samples: ${result.minStagingBacklog}; staging jobs finished by then: ${result.stagingFinishedDuringMeasure}`,
  );
  console.log(
    `ratio end-to-end (saturated p50 / idle p50): ${result.ratio.toFixed(2)}; pickup ratio: ${result.pickupRatio.toFixed(2)}`,
  );
  console.log(`wall time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await database.drop();
}
