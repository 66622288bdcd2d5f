/**
 * Benchmark (not a test) of the worker's staging pipeline, against the same real local services
 * the tests use (Postgres, Redis, s3rver, provider simulator).
 *
 * 1. Platform overhead per job, from the provider's terminal webhook (receipt recorded) to the job's
 *    SUCCESS, for a ~4 MB 1536×1024 PNG output, compared with the raw cost of one S3 GET + sharp
 *    validation + S3 PUT of the same bytes measured in the same run (median of N each).
 * 2. Peak RSS of a worker process (the real entry point) staging 4 outputs of ~19 MiB at once
 *    (concurrency 4); the target is < 400 MB.
 *
 * Run from the repository root: node --import tsx tools/bench/staging-overhead.ts [jobs=8] [all|overhead|rss] [--entry=<bundle>]
 * (for a bundle: `npx tsup --config ../../docker/tsup.config.ts` in apps/worker, then
 * `pnpm --config.inject-workspace-packages=true --filter @staging/worker deploy --prod --config.node-linker=hoisted DIR` and copy dist/ into DIR)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { createTestDatabase } from '../../packages/db/src/testing';
import { inspectOutput } from '../../apps/worker/src/staging/output-inspect';
import { noisePng, startTestStack, waitUntil } from '../../apps/worker/test/support/test-stack';
import { spawnWorker } from '../../apps/worker/test/support/worker-process';

const JOBS = Number(process.argv[2] ?? 8);
/** `overhead`, `rss` or both (default). */
const PART = process.argv[3] ?? 'all';
/**
 * `--entry=<path>/dist/main.js`: measure the bundled worker the image runs (tsup output inside a
 * `pnpm deploy --prod --config.node-linker=hoisted` folder) instead of sources under tsx.
 */
const ENTRY = process.argv.find((arg) => arg.startsWith('--entry='))?.slice('--entry='.length);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function overheadBench(): Promise<void> {
  const stack = await startTestStack({ simCompletionDelayMs: 300 });
  try {
    const worker = await stack.startWorker({ overrides: { timings: { pollIntervalMs: 10_000 } } });
    // The simulator derives its output from the input photo: a noise photo gives a ~4 MB PNG.
    const photo = await noisePng(1536, 1024);
    const overheads: number[] = [];
    const sizes: number[] = [];
    for (let i = 0; i < JOBS; i += 1) {
      const [job] = await stack.seedJobs(1, { photo, producer: { outputFormat: 'png', aspectRatio: '3:2' } });
      await stack.waitForStatus(job!.jobId, ['SUCCESS', 'FAILED'], 60_000);
      const done = await stack.db.aiJob.findUniqueOrThrow({
        where: { id: job!.jobId },
        include: { attempts: true, resultImage: true },
      });
      if (done.status !== 'SUCCESS') throw new Error(`job ${done.id} ended ${done.status} ${done.errorCode}`);
      const receipt = await stack.db.aiProviderWebhookReceipt.findFirstOrThrow({
        where: { providerAttemptId: done.attempts[0]!.id, providerStatus: 'succeeded' },
        orderBy: { receivedAt: 'asc' },
      });
      overheads.push(done.completedAt!.getTime() - receipt.receivedAt.getTime());
      sizes.push(done.resultImage!.bytes);
    }
    const key = (
      await stack.db.propertyImage.findFirstOrThrow({
        where: { isStyled: true, outputFormat: 'png' },
        orderBy: { createdAt: 'desc' },
      })
    ).objectKey;
    const raws: number[] = [];
    for (let i = 0; i < JOBS; i += 1) {
      const started = performance.now();
      const bytes = await stack.storage.getObject(key);
      await inspectOutput(bytes);
      await stack.storage.putObject(`bench/raw-${i}.png`, bytes, 'image/png');
      raws.push(performance.now() - started);
    }
    const overhead = median(overheads);
    const raw = median(raws);
    console.log(
      JSON.stringify({
        part: 'overhead',
        jobs: JOBS,
        outputBytesMedian: median(sizes),
        dimensions: '1536x1024 png',
        webhookToSuccessMsMedian: overhead,
        webhookToSuccessMs: overheads,
        rawGetValidatePutMsMedian: Math.round(raw),
        ratio: Number((overhead / raw).toFixed(2)),
      }),
    );
    await worker.stop();
  } finally {
    await stack.close();
  }
}

async function rssBench(): Promise<void> {
  // 3120×2080 is 3:2 and its noise PNG is about 19.5 MiB, just under the 20 MiB ceiling.
  const big = await noisePng(3120, 2080);
  const files = createServer((req, res) => {
    if (!(req.url ?? '').startsWith('/files/')) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': big.length }).end(big);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  const fileOrigin = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  const stack = await startTestStack({ simCompletionDelayMs: 1_500, simOutputFetchBaseUrl: fileOrigin });
  const child = await spawnWorker({
    env: stack.env({ AI_STAGING_CONCURRENCY: '4', AI_STAGING_OUTPUT_FORMAT: 'png' }),
    ...(ENTRY === undefined ? {} : { entry: [ENTRY] }),
  });
  try {
    await waitUntil(async () => child.lines().some((l) => l['msg'] === 'worker started'), {
      timeoutMs: 30_000,
      what: 'worker boot',
    });
    const pid = child.child.pid!;
    const rssAtIdle = readKb(pid, 'VmRSS');
    const jobs = await stack.seedJobs(4, { producer: { outputFormat: 'png', aspectRatio: '3:2' } });
    for (const { jobId } of jobs) await stack.waitForStatus(jobId, ['SUCCESS', 'FAILED'], 120_000);
    const statuses = await stack.db.aiJob.findMany({
      where: { id: { in: jobs.map((j) => j.jobId) } },
      select: { status: true, errorCode: true },
    });
    const images = await stack.db.propertyImage.findMany({
      where: { aiJobId: { in: jobs.map((j) => j.jobId) } },
      select: { bytes: true },
    });
    const peakKb = readKb(pid, 'VmHWM');
    console.log(
      JSON.stringify({
        part: 'peak-rss',
        outputs: images.map((i) => i.bytes),
        outputMiB: Number((big.length / 1024 / 1024).toFixed(2)),
        statuses,
        rssAtIdleMB: Math.round(rssAtIdle / 1024),
        peakRssMB: Math.round(peakKb / 1024),
        limitMB: 400,
        withinLimit: peakKb / 1024 < 400,
      }),
    );
  } finally {
    await child.kill();
    await stack.close();
    files.close();
  }
}

function readKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.replace(/\D+/g, '') ?? 0);
}

const database = await createTestDatabase();
process.env.DATABASE_URL = database.url;
process.env.QUEUE_SUFFIX = `-bench${Date.now().toString(36)}`;
try {
  if (PART !== 'rss') await overheadBench();
  if (PART !== 'overhead') await rssBench();
} finally {
  await database.drop();
}
process.exit(0);
