/**
 * Measures description latency with ai-staging idle and with ai-staging saturated (docs/system.md 6:
 * staging activity must not delay description jobs). Used by the worker's integration test and by
 * tools/bench/description-isolation.ts.
 *
 * Shaped like production so that what is measured is the worker: the worker runs its real entry
 * point as a process of its own with production timings, and the provider simulator runs as
 * another process (a real provider's CPU is not ours). This process plays the api (the webhook
 * receiver), object storage (s3rver) and the client.
 */
import { readFileSync } from 'node:fs';
import { QueueEvents } from 'bullmq';
import { createProperty, createUser } from '@staging/db/testing/factories';
import { createAiQueue } from '@staging/services/description/ai-queue';
import { requestPropertyDescription } from '@staging/services/description/request-description';
import { memoryLogger } from '@staging/services/staging/testing/staging-test-kit';
import { spawnProviderSimulator } from './simulator-process';
import { HANG_GUARD_MS, startTestStack, TEST_SIGNING_SECRET, TEST_TOKEN, waitUntil } from './test-stack';
import { spawnWorker } from './worker-process';

export interface LatencyStats {
  samples: number;
  p50Ms: number;
  p90Ms: number;
  maxMs: number;
}

/** CPU cores in use (CPU seconds per second of the phase). */
export interface CoreUse {
  worker: number;
  simulator: number;
  /** This process: the client, the webhook receiver and s3rver. */
  harness: number;
  /** Every process on the machine, Postgres and Redis included. */
  machine: number;
}

export interface PhaseStats {
  /** Request to completion as a client sees it. */
  endToEnd: LatencyStats;
  /** ai_jobs.createdAt to startedAt: time in the queue before a consumer took the job. */
  pickup: LatencyStats;
  /** ai_jobs.startedAt to completedAt: the consumer's own work. */
  processing: LatencyStats;
  /** CPU contention during the phase, which queueing is not. */
  cores: CoreUse;
}

export interface IsolationResult {
  idle: PhaseStats;
  saturated: PhaseStats;
  /** saturated end-to-end p50 / idle end-to-end p50. */
  ratio: number;
  stagingJobs: number;
  stagingConcurrency: number;
  /** Smallest ai-staging backlog (waiting + active + delayed) seen while a saturated sample ran. */
  minStagingBacklog: number;
  /** Paid predictions the staging jobs bought during the saturated phase. */
  stagingPurchasesDuringPhase: number;
  /** Staging jobs that reached a terminal status during the saturated phase. */
  stagingFinishedDuringPhase: number;
}

export interface IsolationOptions {
  stagingJobs?: number;
  samples?: number;
  /** AI_STAGING_CONCURRENCY; default the spec's initial 4. */
  stagingConcurrency?: number;
  /** AI_DESCRIPTION_CONCURRENCY; default the spec's initial 2. */
  descriptionConcurrency?: number;
  /** AI_STAGING_RATE_LIMIT_PER_MINUTE; default the spec's initial 6. */
  paidStartLimitPerMinute?: number;
  /** Creation-to-completion delay of every simulated prediction (default 3 s). */
  simCompletionDelayMs?: number;
  /** Pause between two description requests (default 50 ms). */
  sampleGapMs?: number;
}

interface Sample {
  endToEnd: number;
  pickup: number;
  processing: number;
}

function stats(values: number[]): LatencyStats {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { samples: sorted.length, p50Ms: at(0.5), p90Ms: at(0.9), maxMs: sorted.at(-1) ?? 0 };
}

const CLOCK_TICKS_PER_SECOND = 100;

/** user + system CPU seconds of a process, from /proc (Linux). */
function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // proc(5) fields 14 and 15 (utime, stime), counted here from field 3, after the command name.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** Busy CPU seconds of the whole machine (every core), from /proc/stat. */
function machineBusySeconds(): number {
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks;
  return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS_PER_SECOND;
}

function startCoreMeter(pids: { worker: number; simulator: number }): () => CoreUse {
  const read = () => {
    const own = process.cpuUsage();
    return {
      at: performance.now(),
      worker: processCpuSeconds(pids.worker),
      simulator: processCpuSeconds(pids.simulator),
      harness: (own.user + own.system) / 1e6,
      machine: machineBusySeconds(),
    };
  };
  const before = read();
  return () => {
    const after = read();
    const seconds = (after.at - before.at) / 1000;
    const cores = (key: keyof CoreUse) => (after[key] - before[key]) / seconds;
    return {
      worker: cores('worker'),
      simulator: cores('simulator'),
      harness: cores('harness'),
      machine: cores('machine'),
    };
  };
}

const TERMINAL = ['SUCCESS', 'FAILED', 'CANCELED'] as const;

/** Needs DATABASE_URL (a migrated database), VALKEY_URL and QUEUE_SUFFIX like every worker test. */
export async function measureDescriptionIsolation(options: IsolationOptions = {}): Promise<IsolationResult> {
  const stagingJobs = options.stagingJobs ?? 60;
  const samples = options.samples ?? 15;
  const sampleGapMs = options.sampleGapMs ?? 50;
  const stagingConcurrency = options.stagingConcurrency ?? 4;
  const stack = await startTestStack();
  const sim = await spawnProviderSimulator({
    token: TEST_TOKEN,
    webhookSigningSecret: TEST_SIGNING_SECRET,
    completionDelayMs: options.simCompletionDelayMs ?? 3_000,
  });
  const aiQueue = createAiQueue(stack.redis, stack.suffix);
  // Completion is observed on the ai queue's event stream (one blocking read), not by polling
  // Postgres: a polling client would itself load the CPU the measurement is about.
  const completions = new QueueEvents(aiQueue.name, { connection: stack.redis });
  const worker = await spawnWorker({
    settings: null,
    env: stack.env({
      PROVIDER_API_BASE_URL: sim.url,
      AI_STAGING_CONCURRENCY: String(stagingConcurrency),
      AI_DESCRIPTION_CONCURRENCY: String(options.descriptionConcurrency ?? 2),
      AI_STAGING_RATE_LIMIT_PER_MINUTE: String(options.paidStartLimitPerMinute ?? 6),
      LOG_LEVEL: 'warn',
    }),
  });
  try {
    await worker.ready();
    const producer = {
      db: stack.db,
      aiQueue,
      logger: memoryLogger().logger,
      clock: { now: () => new Date() },
    };
    const owner = await createUser(stack.db);
    const property = await createProperty(stack.db, { ownerAgentId: owner.id });

    const completedAt = new Map<string, number>();
    const completionWaiters = new Map<string, () => void>();
    completions.on('completed', ({ jobId }) => {
      completedAt.set(jobId, performance.now());
      completionWaiters.get(jobId)?.();
    });
    await completions.waitUntilReady();
    // The event can arrive before the request call returns, so a completion seen first is kept.
    const completion = (aiJobId: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`description job ${aiJobId} did not finish`)),
          HANG_GUARD_MS,
        );
        const done = () => {
          clearTimeout(timer);
          completionWaiters.delete(aiJobId);
          resolve(completedAt.get(aiJobId)!);
        };
        completionWaiters.set(aiJobId, done);
        if (completedAt.has(aiJobId)) done();
      });

    const describeOnce = async (): Promise<Sample> => {
      const started = performance.now();
      const { aiJobId } = await requestPropertyDescription(producer, {
        propertyId: property.id,
        requestedByUserId: owner.id,
      });
      const finished = await completion(aiJobId);
      const row = await stack.db.aiJob.findUniqueOrThrow({
        where: { id: aiJobId },
        select: { status: true, createdAt: true, startedAt: true, completedAt: true },
      });
      if (row.status !== 'SUCCESS') throw new Error(`description job ${aiJobId} ended ${row.status}`);
      return {
        endToEnd: finished - started,
        pickup: (row.startedAt?.getTime() ?? Number.NaN) - row.createdAt.getTime(),
        processing: (row.completedAt?.getTime() ?? Number.NaN) - (row.startedAt?.getTime() ?? Number.NaN),
      };
    };

    // `samples` descriptions, and more until `done` holds: the saturated phase lasts until a staging
    // job has finished beside the descriptions, however slow this machine is.
    const phase = async (between: () => Promise<void>, done: () => Promise<boolean> = async () => true): Promise<PhaseStats> => {
      const meter = startCoreMeter({ worker: worker.child.pid!, simulator: sim.pid });
      const runs: Sample[] = [];
      for (let i = 0; i < samples || !(await done()); i += 1) {
        await between();
        runs.push(await describeOnce());
        await between();
        // Descriptions arrive now and then, not back to back: without a pause the measurement
        // would be a load of its own, on both phases alike.
        await new Promise((resolve) => setTimeout(resolve, sampleGapMs));
      }
      return {
        endToEnd: stats(runs.map((r) => r.endToEnd)),
        pickup: stats(runs.map((r) => r.pickup)),
        processing: stats(runs.map((r) => r.processing)),
        cores: meter(),
      };
    };

    // Warm-up (connections, prepared statements), then the idle baseline.
    await describeOnce();
    const idle = await phase(async () => undefined);

    // Saturate ai-staging: far more jobs than slots, against a provider that takes seconds.
    const seeded: string[] = [];
    for (let i = 0; i < stagingJobs; i += 50) {
      // One submission takes at most 50 photos.
      const batch = await stack.seedJobs(Math.min(50, stagingJobs - i));
      seeded.push(...batch.map((job) => job.jobId));
    }
    // Measure once staging is under way, not while the first jobs are being picked up. A staging
    // job is active only while it runs a step (it waits for its start slot and its prediction as a
    // delayed queue job), so a count of active jobs is a moment a poll can miss; purchases only
    // grow, so waiting for as many as there are slots cannot miss its moment.
    const purchasesSoFar = () =>
      stack.db.aiProviderAttempt.count({
        where: { aiJobId: { in: seeded }, providerPredictionId: { not: null } },
      });
    await waitUntil(async () => (await purchasesSoFar()) >= stagingConcurrency, {
      what: 'as many staging purchases as there are ai-staging slots',
    });
    const finishedStaging = () =>
      stack.db.aiJob.count({ where: { id: { in: seeded }, status: { in: [...TERMINAL] } } });
    const finishedBefore = await finishedStaging();
    const purchasesBefore = await purchasesSoFar();
    let minStagingBacklog = Number.POSITIVE_INFINITY;
    const saturated = await phase(
      async () => {
        const counts = await stack.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
        minStagingBacklog = Math.min(
          minStagingBacklog,
          Object.values(counts).reduce((sum, n) => sum + n, 0),
        );
      },
      async () => (await finishedStaging()) > finishedBefore,
    );
    const finishedAfter = await finishedStaging();
    const purchasesAfter = await purchasesSoFar();

    return {
      idle,
      saturated,
      ratio: saturated.endToEnd.p50Ms / Math.max(idle.endToEnd.p50Ms, 0.001),
      stagingJobs,
      stagingConcurrency,
      minStagingBacklog,
      stagingPurchasesDuringPhase: purchasesAfter - purchasesBefore,
      stagingFinishedDuringPhase: finishedAfter - finishedBefore,
    };
  } finally {
    await worker.kill();
    await sim.stop();
    await completions.close();
    await aiQueue.obliterate({ force: true }).catch(() => undefined);
    await aiQueue.close();
    await stack.close();
  }
}
