// What one successful staging job costs the worker. N jobs run through the
// bundled worker process (staging-stack.ts) against Postgres, Redis, s3rver, the simulator and
// the api's webhooks; the worker's statements and transactions are counted on the wire, its CPU
// read per thread from /proc with sharp's (libvips and libuv pool threads) reported apart. The
// floor is the minimal ledger run raw with pg on jobs of the same shape in the same run: reserve,
// CREATING, prediction ID, terminal + finalize; its CPU is the cheapest of FLOOR_PASSES passes.
// Beside it an I/O floor: that ledger plus the job's storage and provider calls. The CPU figures
// are printed without a target: the storage and provider calls alone cost many times the ledger
// (docs/decisions/staging.md "What a staging job costs the worker").
//   node --import tsx tools/bench/staging-job-bench.ts [--jobs 24] [--warmup 24]
import { parseArgs } from 'node:util';
import { TEST_SECRETS } from '@staging/config/test-env';
import { createDb, sqlPoolOf } from '@staging/db/client';
import type { SqlPool } from '@staging/db/client';
import type { ObjectStorage } from '@staging/platform/storage';
import { createProviderClient } from '@staging/provider/provider-client';
import { printFigure } from './figures';
import { noiseImage, openStagingBenchStack, threadCpuSeconds } from './staging-stack';
import type { StagingBenchStack, WorkerProcess } from './staging-stack';
import { startPgCountProxy } from './pg-count-proxy';
import type { PgCounts } from './pg-count-proxy';
import { present } from './present';

const { values } = parseArgs({ options: { jobs: { type: 'string', default: '24' }, warmup: { type: 'string', default: '24' } } });
const jobs = Number(values.jobs);
const warmupJobs = Number(values.warmup);
const shape = { aspectRatio: '3:2', outputFormat: 'jpeg' };
/** Timed passes of the floor; its CPU is the cheapest pass's. */
const FLOOR_PASSES = 5;
/**
 * Jobs in one pass of the I/O floor, whatever --jobs is: its five passes' creates, after the
 * worker's, must stay under the provider's 600 creates a minute (150 jobs a pass answered 429).
 */
const IO_FLOOR_JOBS = 24;

/**
 * Threads whose CPU is image decoding: libvips' own and the libuv pool sharp runs it on (named
 * `libuv-worker` from libuv 1.50; on Node 20 they are `node`, like V8's, and count as the worker's).
 */
const isSharpThread = (name: string) => name.includes('vips') || name.startsWith('libuv-worker');

const FLOOR_STATEMENTS = {
  reserve: `WITH started AS (
      UPDATE ai_jobs SET status = 'PROCESSING', "startedAt" = now(), "heartbeatAt" = now(), "updatedAt" = now()
      WHERE id = $1 AND status = 'PENDING' RETURNING id)
    INSERT INTO ai_provider_attempts ("aiJobId", "attemptNumber", status) SELECT id, 1, 'RESERVED' FROM started RETURNING id`,
  creating: `UPDATE ai_provider_attempts SET status = 'CREATING', "creatingAt" = now(), "inputFingerprint" = $2
    WHERE id = $1 AND status = 'RESERVED' AND "providerPredictionId" IS NULL`,
  predictionId: `UPDATE ai_provider_attempts SET status = 'ACTIVE', "providerPredictionId" = $2, "predictionCreatedAt" = now(), "providerStatus" = 'starting'
    WHERE id = $1 AND status = 'CREATING'`,
  succeed: `UPDATE ai_jobs SET status = 'SUCCESS', "completedAt" = now(), "heartbeatAt" = now(), "updatedAt" = now() WHERE id = $1 AND status = 'PROCESSING'`,
  image: `INSERT INTO property_images ("propertyId", "objectKey", "contentType", width, height, bytes, "isStyled", "styledFromId",
      "canonicalStyle", "roomType", "reviewStatus", "aiJobId", "providerPredictionId")
    SELECT s."propertyId", $2, 'image/jpeg', 1536, 1024, 300000, true, s."originalImageId", s."canonicalStyle", s."canonicalRoomType", 'PENDING_REVIEW', s."aiJobId", $3
    FROM ai_room_staging_jobs s WHERE s."aiJobId" = $1 RETURNING id`,
  result: `UPDATE ai_room_staging_jobs SET "resultImageId" = $2 WHERE "aiJobId" = $1`,
  attemptDone: `UPDATE ai_provider_attempts SET status = 'SUCCEEDED', "providerStatus" = 'succeeded', "providerCompletedAt" = now(), "endedAt" = now()
    WHERE id = $1 AND status = 'ACTIVE'`,
};

/** A connection checked out of the pool (pg's PoolClient; pg is a dependency of packages/db). */
type FloorClient = { query: SqlPool['query']; release(destroy: boolean): void };

/** The minimal ledger of one successful job: four transactions. */
async function runFloorJob(client: FloorClient, jobId: string): Promise<void> {
  const reserved = await client.query<{ id: string }>(FLOOR_STATEMENTS.reserve, [jobId]);
  const attemptId = present(reserved.rows[0], 'the reserved attempt').id;
  await client.query(FLOOR_STATEMENTS.creating, [attemptId, `fp-${jobId}`]);
  await client.query(FLOOR_STATEMENTS.predictionId, [attemptId, `pred-${jobId}`]);
  await client.query('BEGIN');
  await client.query(FLOOR_STATEMENTS.succeed, [jobId]);
  const image = await client.query<{ id: string }>(FLOOR_STATEMENTS.image, [jobId, `staged/${jobId}.jpg`, `pred-${jobId}`]);
  await client.query(FLOOR_STATEMENTS.result, [jobId, present(image.rows[0], 'the staged image').id]);
  await client.query(FLOOR_STATEMENTS.attemptDone, [attemptId]);
  await client.query('COMMIT');
}

/** What a successful job must send to storage and the provider, and where. */
interface JobIo {
  storage: ObjectStorage;
  /** The provider's API base, version prefix included. */
  providerUrl: string;
  /** The staging row's model and input, minus the original's URL. */
  model: string;
  input: Record<string, unknown>;
  originalKey: string;
  /** A finished prediction's output, downloaded again for every job. */
  outputUrl: string;
}

/** The create a job sends, as a bare request: the provider client's parsing is the worker's cost, not the floor's. */
async function createPrediction(io: JobIo): Promise<{ id: string }> {
  const imageUrl = await io.storage.presignGetUrl(io.originalKey, 600);
  const response = await fetch(`${io.providerUrl}/models/${io.model}/predictions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TEST_SECRETS.PROVIDER_API_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ input: { ...io.input, input_images: [imageUrl] } }),
  });
  if (!response.ok) throw new Error(`the provider refused a create: HTTP ${response.status}`);
  return (await response.json()) as { id: string };
}

/**
 * The I/O floor's job: the raw ledger plus the storage and provider calls a successful job cannot
 * do without (HEAD and presigned URL of the original, the create, the output's download and its
 * PUT), made with the worker's clients (fetch, the S3 client). It leaves out the queue, the
 * paid-start limiter and the log lines, so the worker's distance from it is an upper bound on what
 * the ORM and the job's own code add.
 */
async function runIoFloorJob(client: FloorClient, io: JobIo, jobId: string): Promise<void> {
  if ((await io.storage.headObject(io.originalKey)) === null) throw new Error('the original is missing');
  await createPrediction(io);
  const output = await fetch(io.outputUrl);
  if (!output.ok) throw new Error(`the output download failed: HTTP ${output.status}`);
  await io.storage.putObject(`staged/io-floor/${jobId}.jpg`, Buffer.from(await output.arrayBuffer()), 'image/jpeg');
  await runFloorJob(client, jobId);
}

/** The model, input and original of seeded job `jobId`, and the output of one prediction made from them. */
async function jobIoOf(stack: StagingBenchStack, jobId: string): Promise<JobIo> {
  const [row] = await stack.db.$queryRaw<{ model: string; input: Record<string, unknown>; originalKey: string }[]>`
    SELECT s."providerModel" AS model, i."objectKey" AS "originalKey",
      json_build_object('prompt', s.prompt, 'aspect_ratio', s."aspectRatio", 'quality', s.quality,
        'output_format', s."outputFormat", 'output_compression', s."outputCompression") AS input
    FROM ai_room_staging_jobs s JOIN property_images i ON i.id = s."originalImageId" WHERE s."aiJobId" = ${jobId}`;
  const io: JobIo = { storage: stack.storage, providerUrl: stack.providerUrl, ...present(row, `job ${jobId}'s staging row`), outputUrl: '' };
  const { id } = await createPrediction(io);
  // Setup, not timed: polled with the project's client, as Replicate's own clients wait without a
  // webhook; the bound is a hang guard.
  const provider = createProviderClient({ baseUrl: io.providerUrl, token: TEST_SECRETS.PROVIDER_API_TOKEN });
  for (let poll = 0; poll < 300; poll += 1) {
    const prediction = await provider.getPrediction(id);
    if (prediction.status === 'succeeded') {
      const [outputUrl] = [prediction.output ?? []].flat();
      if (outputUrl === undefined) throw new Error(`the I/O floor's prediction succeeded without an output`);
      return { ...io, outputUrl };
    }
    if (prediction.status === 'failed' || prediction.status === 'canceled') throw new Error(`the I/O floor's prediction ${prediction.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the I/O floor's prediction did not finish within a minute`);
}

type FloorJob = (client: FloorClient, jobId: string) => Promise<void>;

/** Runs `job` for each of `jobIds` on one connection to `url`; returns its CPU seconds in this process. */
async function runFloor(url: string, jobIds: string[], job: FloorJob): Promise<number> {
  const db = createDb(url, { maxConnections: 1 });
  const client: FloorClient = await sqlPoolOf(db).connect();
  const before = process.cpuUsage();
  for (const id of jobIds) await job(client, id);
  const used = process.cpuUsage(before);
  // Closed, not pooled: the counting proxy in front of it is closed next.
  client.release(true);
  await db.$disconnect();
  return (used.user + used.system) / 1e6;
}

const diff = (after: PgCounts, before: PgCounts): PgCounts => ({
  statements: after.statements - before.statements,
  transactions: after.transactions - before.transactions,
});

function cpuDiff(after: Map<string, number>, before: Map<string, number>): Map<string, number> {
  return new Map([...after].map(([name, seconds]) => [name, seconds - (before.get(name) ?? 0)]));
}

async function waitForJobs(worker: WorkerProcess, jobIds: string[]): Promise<void> {
  const failed = worker.waitForLine(
    (line) => line['event'] === 'terminal_error' && jobIds.includes(line['jobId'] as string),
    `${jobIds.length} jobs to complete (or one to fail)`,
  );
  const completed = Promise.all(
    jobIds.map((id) => worker.waitForLine((line) => line['event'] === 'completed' && line['jobId'] === id, `job ${id} completed`)),
  );
  await Promise.race([completed, failed.then((line) => Promise.reject(new Error(`job failed: ${JSON.stringify(line)}`)))]);
}

const stack = await openStagingBenchStack({ simulator: { SIM_COMPLETION_DELAY_MS: '1500' } });
try {
  const input = await noiseImage(600, 400, 'jpeg');
  const worker = await stack.startWorker({ AI_STAGING_CONCURRENCY: '4' });
  // Let the boot passes (dispatcher repair, first alert checks) finish, then measure an idle
  // stretch: whatever the worker does with no job is reported, not charged to the jobs.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const idleFrom = { db: stack.workerDb.counts(), at: performance.now() };
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const idle = { db: diff(stack.workerDb.counts(), idleFrom.db), seconds: (performance.now() - idleFrom.at) / 1000 };

  // Warm-up jobs, so first-use costs (connections, module init, JIT) are not charged per job: a
  // worker runs for hours, and the figure is its steady state. After a single warm-up job V8's
  // optimizing compiles still ran inside the measured window (its `node` threads: about 15 ms of a
  // job's 40, against about 9 ms after 40 warm-up jobs; 24 are enough to get there).
  const warm = await stack.seedJobs(warmupJobs, input, shape);
  await stack.enqueue(warm);
  await waitForJobs(worker, warm);

  const ids = await stack.seedJobs(jobs, input, shape);
  const dbBefore = stack.workerDb.counts();
  const cpuBefore = threadCpuSeconds(worker.pid);
  const started = performance.now();
  await stack.enqueue(ids);
  await waitForJobs(worker, ids);
  const seconds = (performance.now() - started) / 1000;
  // The last delivery ends (its lock transaction commits) just after the completed line.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const cpu = cpuDiff(threadCpuSeconds(worker.pid), cpuBefore);
  const db = diff(stack.workerDb.counts(), dbBefore);
  await worker.stop();

  const floorCounted = await stack.seedJobs(jobs, input, shape);
  const floorProxy = await startPgCountProxy(stack.databaseUrl);
  await runFloor(floorProxy.url, floorCounted, runFloorJob);
  const floorDb = floorProxy.counts();
  await floorProxy.close();
  // The cheapest of a few passes: a pass is about 170 statements and a few hundred ms of CPU in
  // all, so anything else this process does meanwhile (it drains the api's and simulator's output)
  // showed in a single pass: its figure moved between 0.9 and 2.9 ms a job from run to run.
  const cheapestPassPerJob = async (passJobs: number, job: FloorJob) => {
    let cheapest = Infinity;
    for (let pass = 0; pass < FLOOR_PASSES; pass += 1) {
      const floorTimed = await stack.seedJobs(passJobs, input, shape);
      cheapest = Math.min(cheapest, (await runFloor(stack.databaseUrl, floorTimed, job)) / passJobs);
    }
    return cheapest;
  };
  const floorMs = (await cheapestPassPerJob(jobs, runFloorJob)) * 1000;
  const io = await jobIoOf(stack, present(floorCounted[0], 'a counted floor job'));
  const ioFloorMs = (await cheapestPassPerJob(Math.min(jobs, IO_FLOOR_JOBS), (client, jobId) => runIoFloorJob(client, io, jobId))) * 1000;

  const sum = (predicate: (name: string) => boolean) => [...cpu].filter(([name]) => predicate(name)).reduce((total, [, s]) => total + s, 0);
  const perJobMs = (s: number) => (s * 1000) / jobs;
  const sharpMs = perJobMs(sum(isSharpThread));
  const withoutSharpMs = perJobMs(sum((name) => !isSharpThread(name)));
  const per = (n: number) => (n / jobs).toFixed(1);
  console.log(`${jobs} jobs after ${warmupJobs} warm-up jobs in ${seconds.toFixed(1)} s (concurrency 4, provider 1.5 s, 600x400 input, 3:2 jpeg output)`);
  console.log(`worker per job: ${per(db.transactions)} transactions, ${per(db.statements)} statements; idle worker: ${idle.db.transactions} transactions, ${idle.db.statements} statements in ${idle.seconds.toFixed(1)} s`);
  console.log(`floor per job:  ${per(floorDb.transactions)} transactions, ${per(floorDb.statements)} statements`);
  console.log(
    `worker CPU per job: ${withoutSharpMs.toFixed(1)} ms without sharp + ${sharpMs.toFixed(1)} ms sharp; floor CPU per job ${floorMs.toFixed(2)} ms` +
      ` (threads: ${[...cpu].filter(([, s]) => s > 0).map(([name, s]) => `${name} ${perJobMs(s).toFixed(1)}`).join(', ')})`,
  );
  console.log(
    `I/O floor CPU per job: ${ioFloorMs.toFixed(2)} ms (the floor's ledger + HEAD and presigned URL of the original, create, download, PUT of the output;` +
      ` no queue, limiter or logs); worker without sharp ${(withoutSharpMs / ioFloorMs).toFixed(1)}x it (no target)`,
  );
  printFigure({ name: 'transactions per successful job', value: db.transactions / jobs, target: 10, better: 'lower' });
} finally {
  await stack.close();
}
process.exit(0);
