/**
 * Measures description latency with ai-staging idle and with ai-staging saturated (SPEC.md 6:
 * staging activity must not delay description jobs). Used by the integration test and by
 * tools/bench/description-isolation.ts; the worker itself never imports it.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createProperty, createUser } from '@staging/db/testing/factories';
import { createAiQueue } from '@staging/services/description/ai-queue';
import { requestPropertyDescription } from '@staging/services/description/request-description';
import { memoryLogger } from '@staging/services/staging/testing/staging-test-kit';
import { startTestStack } from '../../test/support/test-stack';

export interface LatencyStats {
  samples: number;
  p50Ms: number;
  p90Ms: number;
  maxMs: number;
}

export interface PhaseStats {
  /** Request to SUCCESS as a client sees it. */
  endToEnd: LatencyStats;
  /** ai_jobs.createdAt to startedAt: time in the queue before a consumer took the job. */
  pickup: LatencyStats;
  /** Event-loop delay of this process during the phase (p50, ms): CPU contention, not queueing. */
  eventLoopDelayP50Ms: number;
}

export interface IsolationResult {
  idle: PhaseStats;
  saturated: PhaseStats;
  /** saturated end-to-end p50 / idle end-to-end p50. */
  ratio: number;
  /** saturated pickup p50 / idle pickup p50. */
  pickupRatio: number;
  stagingJobs: number;
  stagingConcurrency: number;
  /** Smallest ai-staging backlog (waiting + active + delayed) seen while a saturated sample ran. */
  minStagingBacklog: number;
  /** Staging jobs that reached a terminal status by the end of the saturated phase. */
  stagingFinishedDuringMeasure: number;
}

export interface IsolationOptions {
  stagingJobs?: number;
  samples?: number;
  stagingConcurrency?: number;
  descriptionConcurrency?: number;
  /** Creation-to-completion delay of every simulated prediction. */
  simCompletionDelayMs?: number;
  /** AI_STAGING_RATE_LIMIT_PER_MINUTE of the worker; high by default so every slot stays busy. */
  stagingRateLimitPerMinute?: number;
}

function stats(values: number[]): LatencyStats {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { samples: sorted.length, p50Ms: at(0.5), p90Ms: at(0.9), maxMs: sorted.at(-1) ?? 0 };
}

/** Needs DATABASE_URL (a migrated database), VALKEY_URL and QUEUE_SUFFIX like every worker test. */
export async function measureDescriptionIsolation(options: IsolationOptions = {}): Promise<IsolationResult> {
  const stagingJobs = options.stagingJobs ?? 60;
  const samples = options.samples ?? 15;
  const stagingConcurrency = options.stagingConcurrency ?? 4;
  const stack = await startTestStack({ simCompletionDelayMs: options.simCompletionDelayMs ?? 2_000 });
  const aiQueue = createAiQueue(stack.redis, stack.suffix);
  const producer = { db: stack.db, aiQueue, logger: memoryLogger().logger, clock: { now: () => new Date() } };
  const worker = await stack.startWorker({
    env: {
      AI_STAGING_CONCURRENCY: String(stagingConcurrency),
      AI_DESCRIPTION_CONCURRENCY: String(options.descriptionConcurrency ?? 2),
      AI_STAGING_RATE_LIMIT_PER_MINUTE: String(options.stagingRateLimitPerMinute ?? 10_000),
      LOG_LEVEL: 'warn',
    },
  });
  try {
    const owner = await createUser(stack.db);
    const property = await createProperty(stack.db, { ownerAgentId: owner.id });

    const describeOnce = async (): Promise<{ endToEnd: number; pickup: number }> => {
      const started = performance.now();
      const { aiJobId } = await requestPropertyDescription(producer, {
        propertyId: property.id,
        requestedByUserId: owner.id,
      });
      for (;;) {
        const row = await stack.db.aiJob.findUnique({
          where: { id: aiJobId },
          select: { status: true, createdAt: true, startedAt: true },
        });
        if (row?.status === 'SUCCESS') {
          return {
            endToEnd: performance.now() - started,
            pickup: (row.startedAt?.getTime() ?? Number.NaN) - row.createdAt.getTime(),
          };
        }
        if (row?.status === 'FAILED') throw new Error(`description job ${aiJobId} failed`);
        if (performance.now() - started > 30_000)
          throw new Error(`description job ${aiJobId} did not finish`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    };
    const backlog = async (): Promise<number> => {
      const counts = await stack.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      return Object.values(counts).reduce((sum, n) => sum + n, 0);
    };

    const phase = async (between: () => Promise<void>): Promise<PhaseStats> => {
      const loop = monitorEventLoopDelay({ resolution: 10 });
      loop.enable();
      const runs: { endToEnd: number; pickup: number }[] = [];
      for (let i = 0; i < samples; i += 1) {
        await between();
        runs.push(await describeOnce());
        await between();
      }
      loop.disable();
      return {
        endToEnd: stats(runs.map((r) => r.endToEnd)),
        pickup: stats(runs.map((r) => r.pickup)),
        eventLoopDelayP50Ms: loop.percentile(50) / 1e6,
      };
    };

    // Warm-up (connections, prepared statements), then the idle baseline.
    await describeOnce();
    const idle = await phase(async () => undefined);

    // Saturate ai-staging: many jobs at once against a slow provider.
    const seeded: string[] = [];
    for (let i = 0; i < stagingJobs; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(10, stagingJobs - i) }, () => stack.seedJob()),
      );
      seeded.push(...batch.map((b) => b.jobId));
    }
    let minStagingBacklog = Number.POSITIVE_INFINITY;
    const saturated = await phase(async () => {
      minStagingBacklog = Math.min(minStagingBacklog, await backlog());
    });
    const finished = await stack.db.aiJob.count({
      where: { id: { in: seeded }, status: { in: ['SUCCESS', 'FAILED', 'CANCELED'] } },
    });

    return {
      idle,
      saturated,
      ratio: saturated.endToEnd.p50Ms / Math.max(idle.endToEnd.p50Ms, 0.001),
      pickupRatio: saturated.pickup.p50Ms / Math.max(idle.pickup.p50Ms, 1),
      stagingJobs,
      stagingConcurrency,
      minStagingBacklog,
      stagingFinishedDuringMeasure: finished,
    };
  } finally {
    await worker.stop();
    await aiQueue.obliterate({ force: true }).catch(() => undefined);
    await aiQueue.close();
    await stack.close();
  }
}
