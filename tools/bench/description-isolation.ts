// Bench: description latency with ai-staging idle vs saturated (docs/system.md 6: staging activity must
// not delay description jobs). Creates its own migrated database and queue suffix on the local
// PostgreSQL/Redis and runs the measurement of the worker's integration test with more samples,
// in two scenarios, printing each phase, the CPU cores in use and the ratio:
//
// - spec: the spec's initial values (AI_STAGING_CONCURRENCY 4, AI_STAGING_RATE_LIMIT_PER_MINUTE 6);
// - flat out: a rate limit that never binds and a 2 s provider, so the staging pipeline uses
//   as much CPU as it can. On a 2-core machine this shows where CPU contention, not queueing,
//   starts to add to description latency.
//
//   npx tsx tools/bench/description-isolation.ts [stagingJobs=120] [samples=40]
import { randomBytes } from 'node:crypto';
import { createTestDatabase } from '../../packages/db/src/testing';

const stagingJobs = Number(process.argv[2] ?? 120);
const samples = Number(process.argv[3] ?? 40);

const scenarios = [
  { name: 'spec', stagingRateLimitPerMinute: 6, simCompletionDelayMs: 3_000 },
  { name: 'flat out', stagingRateLimitPerMinute: 10_000, simCompletionDelayMs: 2_000 },
] as const;

// The worker test support reads these like a Jest run's global setup provides them.
process.env.VALKEY_URL ??= 'redis://127.0.0.1:6379';
process.env.QUEUE_SUFFIX = `-bench${randomBytes(4).toString('hex')}`;
const { measureDescriptionIsolation } = await import('../../apps/worker/test/support/description-isolation');
const f = (ms: number) => `${ms.toFixed(1)} ms`;

for (const scenario of scenarios) {
  // A database per scenario: the next worker's repair pass would otherwise pick up the staging
  // jobs the previous scenario left unfinished, and the idle phase would not be idle.
  const database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  try {
    const started = performance.now();
    const result = await measureDescriptionIsolation({ stagingJobs, samples, ...scenario });
    console.log(
      `\n== ${scenario.name}: ${stagingJobs} staging jobs, concurrency ${result.stagingConcurrency}, ` +
        `${scenario.stagingRateLimitPerMinute} paid starts/min, provider ${scenario.simCompletionDelayMs} ms; ${samples} descriptions per phase`,
    );
    for (const [name, phase] of [
      ['idle', result.idle],
      ['saturated', result.saturated],
    ] as const) {
      const { cores } = phase;
      console.log(
        `${name.padEnd(10)} end-to-end p50 ${f(phase.endToEnd.p50Ms)} p90 ${f(phase.endToEnd.p90Ms)} max ${f(phase.endToEnd.maxMs)} | ` +
          `pickup p50 ${f(phase.pickup.p50Ms)} | processing p50 ${f(phase.processing.p50Ms)} | ` +
          `cores: worker ${cores.worker.toFixed(2)}, simulator ${cores.simulator.toFixed(2)}, harness ${cores.harness.toFixed(2)}, machine ${cores.machine.toFixed(2)} of 2`,
      );
    }
    console.log(
      `ai-staging backlog at least ${result.minStagingBacklog}; ${result.stagingPurchases} predictions bought; ` +
        `${result.stagingFinishedDuringPhase} staging jobs finished during the saturated phase`,
    );
    console.log(
      `ratio end-to-end p50 (saturated / idle): ${result.ratio.toFixed(2)}; ` +
        `pickup p50 ${result.idle.pickup.p50Ms} → ${result.saturated.pickup.p50Ms} ms; ` +
        `wall ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await database.drop();
  }
}
