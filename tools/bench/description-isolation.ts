// Description latency end to end (request to the ai queue's completed event)
// with ai-staging idle, then saturated, on the same worker process in the same run. The worker
// runs as the image runs it and the provider simulator in a process of its own (staging-stack.ts):
// what contends with descriptions is the worker's own staging work, not the simulator's CPU. The
// rate limit never binds and the provider takes 2 s, so the staging pipeline uses all the CPU it
// can: on a 2-core machine this is where contention, not queueing, would add latency.
//   node --import tsx tools/bench/description-isolation.ts [--staging-jobs 120] [--samples 25]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { QueueEvents } from 'bullmq';
import { createProperty, createUser } from '@staging/db/testing/factories';
import { memoryLogger } from '@staging/platform/testing/memory-logger';
import { createAiQueue } from '@staging/services/description/ai-queue';
import { requestPropertyDescription } from '@staging/services/description/request-description';
import { createStagingQueue } from '@staging/services/staging/staging-queue';
import { printFigure } from './figures';
import { noiseImage, openStagingBenchStack } from './staging-stack';

const { values } = parseArgs({ options: { 'staging-jobs': { type: 'string', default: '120' }, samples: { type: 'string', default: '25' } } });
const stagingJobs = Number(values['staging-jobs']);
const samples = Number(values.samples);
/** Descriptions arrive now and then, not back to back: without a pause the samples would be a load of their own. */
const SAMPLE_GAP_MS = 50;
const STAGING_CONCURRENCY = 4;

function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const stack = await openStagingBenchStack({ simulator: { SIM_COMPLETION_DELAY_MS: '2000' } });
const aiQueue = createAiQueue(stack.redis, stack.queueSuffix);
const stagingQueue = createStagingQueue(stack.redis, stack.queueSuffix);
// Completion is the ai queue's event stream (one blocking read), not a Postgres poll that would
// itself load the CPU being measured.
const events = new QueueEvents(aiQueue.name, { connection: stack.redis.duplicate() });
try {
  const worker = await stack.startWorker({ AI_STAGING_CONCURRENCY: String(STAGING_CONCURRENCY), AI_DESCRIPTION_CONCURRENCY: '2' });
  const owner = await createUser(stack.db);
  const property = await createProperty(stack.db, { ownerAgentId: owner.id });
  const producer = { db: stack.db, aiQueue, logger: memoryLogger('bench').logger, clock: { now: () => new Date() } };
  const completed = new Map<string, number>();
  const waiters = new Map<string, (at: number) => void>();
  events.on('completed', ({ jobId }) => {
    const at = performance.now();
    completed.set(jobId, at);
    waiters.get(jobId)?.(at);
  });
  await events.waitUntilReady();

  const describeOnce = async (): Promise<number> => {
    const started = performance.now();
    const { aiJobId } = await requestPropertyDescription(producer, { propertyId: property.id, requestedByUserId: owner.id });
    // The event can arrive before the request call returns.
    const finished = completed.get(aiJobId) ?? (await new Promise<number>((resolve) => waiters.set(aiJobId, resolve)));
    return finished - started;
  };
  const phase = async (name: string) => {
    const cpuBefore = cpuSeconds(worker.pid);
    const from = performance.now();
    const latencies: number[] = [];
    for (let i = 0; i < samples; i += 1) {
      latencies.push(await describeOnce());
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_GAP_MS));
    }
    const cores = (cpuSeconds(worker.pid) - cpuBefore) / ((performance.now() - from) / 1000);
    const backlog = Object.values(await stagingQueue.getJobCounts('waiting', 'prioritized', 'active', 'delayed')).reduce((a, b) => a + b, 0);
    const p50 = percentile(latencies, 0.5);
    console.log(
      `${name.padEnd(9)} description end-to-end p50 ${p50.toFixed(1)} ms, p90 ${percentile(latencies, 0.9).toFixed(1)} ms; ` +
        `worker ${cores.toFixed(2)} cores; ai-staging backlog at the end ${backlog}`,
    );
    return p50;
  };

  await describeOnce(); // warm-up: connections, prepared statements, JIT
  const idle = await phase('idle');
  const ids = await stack.seedJobs(stagingJobs, await noiseImage(600, 400, 'jpeg'), { aspectRatio: '3:2', outputFormat: 'jpeg' });
  await stack.enqueue(ids);
  // Measure from the first staging result on: by then every slot is busy and outputs are being
  // downloaded, decoded and stored, the costly part, not only predictions being bought.
  await worker.waitForLine((line) => line['event'] === 'completed');
  const linesBefore = worker.lines.length;
  const saturated = await phase('saturated');
  const count = (event: string) => worker.lines.slice(linesBefore).filter((line) => line['event'] === event).length;
  console.log(`during the saturated phase the worker bought ${count('prediction_created')} predictions and finished ${count('completed')} staging jobs`);
  await worker.stop();
  console.log(`${stagingJobs} staging jobs (concurrency ${STAGING_CONCURRENCY}, provider 2 s, no rate limit); ${samples} descriptions per phase`);
  printFigure({ name: 'description p50, ai-staging saturated vs idle', value: saturated / idle, target: 1.5, better: 'lower' });
} finally {
  await events.close();
  await aiQueue.close();
  await stagingQueue.close();
  await stack.close();
}
process.exit(0);
