// How long an agent waits for a staged photo beyond the provider's own processing: from the submit
// (ai.submitStaging on the api's tRPC) to the moment the dashboard learns the job is ready for
// review (its SUCCESS event arriving on an ai.stagingEvents stream of the api, read as a
// browser's EventSource reads it), minus the provider's processing time as the simulator reports it
// (its created_at → completed_at, which includes its own queueing). p50 and p99 with one job at a
// time and with four at once, each job with a ~2 MiB PNG output. The rest of the stack is real:
// the api's producer, webhook receiver and live stream, the worker as the image runs it
// (staging-stack.ts), Postgres, Redis, s3rver and the provider simulator.
// Target: our share <= 300 ms p50 and <= 1.5 s p99. The figures are milliseconds, not ratios: the
// baseline measured in the same run is the provider's time, subtracted job by job.
//
// The breakdown per hop comes from the worker's event lines (docs/system.md 6), the simulator's
// record of each prediction, the api's webhook receipts (receivedAt) and the lines of
// hop-trace.mjs, a preload that marks the start and end of the output's download and the end of
// its PUT. Absolute times move with the machine's load, so the load average is printed with them.
// The dashboard's page then waits COALESCE_MS (200 ms, live-status.tsx) and refetches; that is
// the browser's, not measured here.
//
//   node --import tsx tools/bench/time-to-result-bench.ts [--jobs 60] [--warmup 4]
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createOriginalImage, createProperty } from '@staging/db/testing/factories';
import { openLiveStream } from '@staging/trpc/testing/live-stream';
import type { LiveStream, ServerSentEvent } from '@staging/trpc/testing/live-stream';
import { callProcedure, createSignedInUser } from '@staging/trpc/testing/test-server';
import { numberField, stringField } from '@staging/stack/json-fields';
import { printFigure } from './figures';
import { percentile, root } from './http-load';
import { noiseImage, openStagingBenchStack } from './staging-stack';
import type { WorkerProcess } from './staging-stack';
import { present } from './present';

const { values } = parseArgs({ options: { jobs: { type: 'string', default: '60' }, warmup: { type: 'string', default: '4' } } });
const jobsPerLevel = Number(values.jobs);
const warmupJobs = Number(values.warmup);
/** Jobs in flight at once: one agent's single photo, and a few rooms staged together. */
const LEVELS = [1, 4];
/** The simulator's prediction time, as in the e2e stack: about a second. */
const PROVIDER_DELAY_MS = 1_000;
/**
 * PNG output at the default 1:1 (1024×1024) for api (producer) and worker alike: the simulator's
 * render of the noise photo below is then about 2 MiB, where a JPEG of it would be a third of that.
 */
const OUTPUT_ENV = { AI_STAGING_OUTPUT_FORMAT: 'png' };
/** The photo's noise: 18 makes the simulator's PNG 2.0 MiB. */
const NOISE_SIGMA = 18;
/** ai.submitStaging allows 20 calls a minute per user; a lane hands over to a new agent before that. */
const SUBMISSIONS_PER_AGENT = 15;
/** A hang guard: a job not ready this long after its submit failed or lost its event. */
const READY_GUARD_MS = 60_000;

const stack = await openStagingBenchStack({ simulator: { SIM_COMPLETION_DELAY_MS: String(PROVIDER_DELAY_MS) }, api: OUTPUT_ENV });
const trpcUrl = `http://127.0.0.1:${stack.api.port}/api/trpc`;
const streams: LiveStream[] = [];

interface Agent {
  cookie: string;
  propertyId: string;
  stream: LiveStream;
  submissions: number;
}

/** A signed-in agent with a listing of their own and the dashboard's live stream open and caught up. */
async function newAgent(): Promise<Agent> {
  const user = await createSignedInUser(stack.db);
  const property = await createProperty(stack.db, { ownerAgentId: user.id });
  const stream = await openLiveStream(trpcUrl, 'ai.stagingEvents', { cookie: user.cookie });
  streams.push(stream);
  if (stream.status !== 200) throw new Error(`ai.stagingEvents answered ${stream.status}`);
  await stream.waitFor((event) => event.event === 'message' && stringField(event.data, 'kind') === 'resync');
  return { cookie: user.cookie, propertyId: property.id, stream, submissions: 0 };
}

interface Waited {
  jobId: string;
  /** Epoch ms (every process here shares the machine's clock): submit sent, answered, ready event read. */
  submittedAt: number;
  answeredAt: number;
  readyAt: number;
}

const isReady = (jobId: string) => (event: ServerSentEvent) => {
  const field = (key: string) => stringField(event.data, key);
  return event.event === 'message' && field('kind') === 'job' && field('jobId') === jobId && field('status') === 'SUCCESS';
};

async function stageOne(worker: WorkerProcess, agent: Agent, photo: Buffer): Promise<Waited> {
  const original = await createOriginalImage(stack.db, { propertyId: agent.propertyId });
  await stack.storage.putObject(original.objectKey, photo, 'image/jpeg');
  const submittedAt = Date.now();
  const answer = await callProcedure<{ items: { aiJobId: string | null; disposition: string }[] }>(
    trpcUrl,
    'mutation',
    'ai.submitStaging',
    { assignments: [{ originalImageId: original.id, roomType: 'LIVING_ROOM', style: 'MODERN' }] },
    { cookie: agent.cookie },
  );
  const answeredAt = Date.now();
  agent.submissions += 1;
  if (!answer.ok) throw new Error(`ai.submitStaging answered ${answer.status}: ${answer.error.message}`);
  const jobId = answer.data.items[0]?.aiJobId;
  if (typeof jobId !== 'string') throw new Error(`ai.submitStaging made no job: ${JSON.stringify(answer.data)}`);
  let guard: NodeJS.Timeout | undefined;
  const readyAt = await Promise.race([
    agent.stream.waitFor(isReady(jobId)).then(() => Date.now()),
    new Promise<never>((_, reject) => {
      guard = setTimeout(() => {
        const events = worker.lines.filter((line) => line['jobId'] === jobId).map((line) => line['event'] ?? line['msg']);
        reject(new Error(`job ${jobId} not ready ${READY_GUARD_MS / 1000} s after its submit; worker lines: ${events.join(', ')}`));
      }, READY_GUARD_MS);
    }),
  ]).finally(() => clearTimeout(guard));
  return { jobId, submittedAt, answeredAt, readyAt };
}

/** `count` jobs over `lanes` lanes, each lane submitting its next job once the previous one is ready. */
async function runLanes(worker: WorkerProcess, photo: Buffer, lanes: number, count: number): Promise<Waited[]> {
  const results = await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      const mine: Waited[] = [];
      let agent = await newAgent();
      for (let i = lane; i < count; i += lanes) {
        if (agent.submissions === SUBMISSIONS_PER_AGENT) agent = await newAgent();
        mine.push(await stageOne(worker, agent, photo));
      }
      return mine;
    }),
  );
  return results.flat();
}

interface SimPrediction {
  id: string;
  created_at: string;
  completed_at: string | null;
  output: string[] | string | null;
  metrics?: { predict_time?: number };
}

const HOPS = [
  ['queue wait', 'submit sent → worker_started'],
  ['create', 'worker_started → the provider has the prediction'],
  ['provider', "the provider's own processing (not ours)"],
  ['webhook arrival', "the provider's completion → the api's receipt"],
  ['wake', 'receipt → provider_terminal (promote, pickup, poll, record)'],
  ['output slot', "provider_terminal → download starts (the worker's one output slot)"],
  ['download', 'download starts → output downloaded'],
  ['validate', 'downloaded → output_validated'],
  ['store', 'output_validated → PUT answered'],
  ['finalize', 'PUT answered → completed'],
  ['notification', 'completed → SUCCESS event read on the live stream'],
] as const;
type Hop = (typeof HOPS)[number][0];

/** Each job's hops in milliseconds, read from the worker's lines, the simulator and the receipts. */
async function hopsOf(worker: WorkerProcess, waited: Waited[]): Promise<{ hops: Record<Hop, number>; total: number; predictTimeMs: number; outputBytes: number }[]> {
  const simulator = (await (await fetch(`${new URL(stack.providerUrl).origin}/__sim/predictions`)).json()) as { predictions: SimPrediction[] };
  const predictions = new Map(simulator.predictions.map((p) => [p.id, p]));
  const receipts = await stack.db.$queryRaw<{ predictionId: string; receivedAt: Date }[]>`
    SELECT "providerPredictionId" AS "predictionId", min("receivedAt") AS "receivedAt"
    FROM ai_provider_webhook_receipts WHERE "providerStatus" = 'succeeded' GROUP BY 1`;
  const receivedAt = new Map(receipts.map((r) => [r.predictionId, r.receivedAt.getTime()]));
  const timeOf = (line: Record<string, unknown> | undefined) => (line === undefined ? Number.NaN : Date.parse(stringField(line, 'time') ?? ''));
  const traced = (match: (line: Record<string, unknown>) => boolean) =>
    numberField(worker.lines.find((line) => line['hopTrace'] !== undefined && match(line)), 't');

  return waited.map(({ jobId, submittedAt, readyAt }) => {
    const event = (name: string) => worker.lines.find((line) => line['jobId'] === jobId && line['event'] === name);
    const created = event('prediction_created');
    const prediction = predictions.get(stringField(created, 'predictionId') ?? '');
    if (prediction === undefined || prediction.completed_at === null) throw new Error(`job ${jobId}: the simulator has no finished prediction for it`);
    const outputPath = new URL(present([prediction.output ?? []].flat()[0], `job ${jobId}'s output URL`)).pathname;
    const t = {
      started: timeOf(event('worker_started')),
      providerCreated: Date.parse(prediction.created_at),
      providerDone: Date.parse(prediction.completed_at),
      received: receivedAt.get(prediction.id) ?? Number.NaN,
      terminal: timeOf(event('provider_terminal')),
      downloading: traced((line) => line['hopTrace'] === 'fetch_start' && line['path'] === outputPath) ?? Number.NaN,
      downloaded: traced((line) => line['hopTrace'] === 'fetch_done' && line['path'] === outputPath) ?? Number.NaN,
      validated: timeOf(event('output_validated')),
      stored: traced((line) => line['hopTrace'] === 'http_answered' && line['method'] === 'PUT' && String(line['path']).includes(`/${jobId}/`)) ?? Number.NaN,
      completed: timeOf(event('completed')),
    };
    return {
      hops: {
        'queue wait': t.started - submittedAt,
        create: t.providerCreated - t.started,
        provider: t.providerDone - t.providerCreated,
        'webhook arrival': t.received - t.providerDone,
        wake: t.terminal - t.received,
        'output slot': t.downloading - t.terminal,
        download: t.downloaded - t.downloading,
        validate: t.validated - t.downloaded,
        store: t.stored - t.validated,
        finalize: t.completed - t.stored,
        notification: readyAt - t.completed,
      },
      total: readyAt - submittedAt,
      predictTimeMs: (prediction.metrics?.predict_time ?? Number.NaN) * 1000,
      outputBytes: numberField(event('output_validated'), 'bytes') ?? Number.NaN,
    };
  });
}

const sortedOf = (values: number[]) => [...values].sort((a, b) => a - b);
const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

function printBreakdown(jobs: Awaited<ReturnType<typeof hopsOf>>, waited: Waited[]): { p50: number; p99: number } {
  const row = (name: string, values: number[], note = '') => {
    const sorted = sortedOf(values);
    const f = (n: number) => n.toFixed(0).padStart(8);
    console.log(`${name.padEnd(16)} ${f(percentile(sorted, 50))} ${f(percentile(sorted, 99))} ${f(mean(values))}  ${note}`);
  };
  console.log(`${'hop'.padEnd(16)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'mean ms'.padStart(8)}`);
  for (const [hop, note] of HOPS) row(hop, jobs.map((job) => job.hops[hop]), note);
  row('total wait', jobs.map((job) => job.total), 'submit sent → SUCCESS event read');
  const ours = jobs.map((job) => job.total - job.hops.provider);
  row('our share', ours, 'total wait − provider');
  row('(submit answer)', waited.map((w) => w.answeredAt - w.submittedAt), 'the mutation answered, within queue wait');
  row('(predict_time)', jobs.map((job) => job.predictTimeMs), "the simulator's metrics: started → completed, within provider");
  const sorted = sortedOf(ours);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

try {
  const photo = await noiseImage(1024, 1024, 'jpeg', NOISE_SIGMA);
  const worker = await stack.startWorker(OUTPUT_ENV, { nodeArgs: ['--import', path.join(root, 'tools/bench/hop-trace.mjs')] });
  // First-use costs (connections, module init, JIT, the simulator's one render of the photo) are
  // not the agent's steady wait.
  await runLanes(worker, photo, Math.min(warmupJobs, Math.max(...LEVELS)), warmupJobs);
  const figures = [];
  for (const lanes of LEVELS) {
    const loadBefore = present(loadavg()[0], 'the load average');
    const waited = await runLanes(worker, photo, lanes, jobsPerLevel);
    const jobs = await hopsOf(worker, waited);
    const mib = mean(jobs.map((job) => job.outputBytes)) / 2 ** 20;
    console.log(`\n${lanes === 1 ? '1 job at a time' : `${lanes} jobs at once`}: ${jobs.length} jobs, ${mib.toFixed(2)} MiB PNG outputs, simulator prediction ${PROVIDER_DELAY_MS} ms` +
      ` (p99 of ${jobs.length} is the ${jobs.length < 100 ? 'slowest' : 'nearest rank'}); load average ${loadBefore.toFixed(1)} before, ${present(loadavg()[0], 'the load average').toFixed(1)} after`);
    const ours = printBreakdown(jobs, waited);
    const label = lanes === 1 ? '1 job at a time' : `${lanes} concurrent jobs`;
    figures.push(
      { name: `our share of the wait p50 ms, ${label}`, value: ours.p50, target: 300, better: 'lower' as const },
      { name: `our share of the wait p99 ms, ${label}`, value: ours.p99, target: 1500, better: 'lower' as const },
    );
  }
  await worker.stop();
  for (const figure of figures) printFigure(figure);
} finally {
  for (const stream of streams) stream.close();
  await stack.close();
}
process.exit(0);
