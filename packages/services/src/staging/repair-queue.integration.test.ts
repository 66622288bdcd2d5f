import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { UnrecoverableError, Worker } from 'bullmq';
import { repairStagingQueue } from './repair-queue';
import type { StagingProducerDeps } from './staging-deps';
import { enqueueStagingJob } from './staging-queue';
import { submitStaging } from './submit-staging';
import { producerDeps, seedListing, useStagingTestContext } from './testing/staging-test-kit';

// Own database: repair scans every open job of the database, and other test files create some.
const ctx = useStagingTestContext({ ownDatabase: true });
let deps: StagingProducerDeps;

beforeEach(async () => {
  await ctx.db.aiJob.deleteMany();
  deps = producerDeps({ db: ctx.db, stagingQueue: ctx.tq.queue, logger: ctx.log.logger });
});

async function submitOne(): Promise<string> {
  const listing = await seedListing(ctx.db);
  const [item] = await submitStaging(deps, {
    actor: listing.actor,
    assignments: [{ originalImageId: listing.originalImageId, roomType: 'DINING_ROOM', style: 'COASTAL' }],
  });
  return item!.aiJobId!;
}

describe('repairStagingQueue', () => {
  it('re-adds every open job after the queue keys were lost, and only those, idempotently', async () => {
    const pending = await submitOne();
    const processing = await submitOne();
    const retrying = await submitOne();
    const cancelRequested = await submitOne();
    const done = await submitOne();
    const failed = await submitOne();
    await ctx.db.aiJob.update({ where: { id: processing }, data: { status: 'PROCESSING' } });
    await ctx.db.aiJob.update({ where: { id: retrying }, data: { status: 'RETRYING' } });
    await ctx.db.aiJob.update({ where: { id: cancelRequested }, data: { status: 'CANCEL_REQUESTED' } });
    await ctx.db.aiJob.update({ where: { id: done }, data: { status: 'SUCCESS' } });
    await ctx.db.aiJob.update({ where: { id: failed }, data: { status: 'FAILED', errorCode: 'PROVIDER_AUTH' } });

    expect(await ctx.tq.deleteKeys()).toBeGreaterThan(0);
    expect(await ctx.tq.queue.getJobState(pending)).toBe('unknown');

    const counts = await repairStagingQueue(deps);
    expect(counts).toEqual({ scanned: 4, queued: 0, added: 4, replaced: 0, errors: 0 });
    for (const id of [pending, processing, retrying, cancelRequested]) {
      const message = await ctx.tq.queue.getJob(id);
      expect(message?.data).toEqual({ aiJobId: id, v: 1 });
      expect(await message?.getState()).toBe('waiting');
    }
    expect(await ctx.tq.queue.getJob(done)).toBeUndefined();
    expect(await ctx.tq.queue.getJob(failed)).toBeUndefined();

    expect(await repairStagingQueue(deps)).toEqual({ scanned: 4, queued: 4, added: 0, replaced: 0, errors: 0 });
    expect(await ctx.tq.queue.count()).toBe(4);
  });

  it('leaves delayed messages alone and replaces a failed message of a job the ledger holds open', async () => {
    const parked = await submitOne();
    await ctx.tq.queue.remove(parked);
    await enqueueStagingJob(ctx.tq.queue, parked, { delayMs: 600_000 });
    const stuck = await submitOne();
    await ctx.tq.queue.remove(stuck);

    // The message of `stuck` fails at the transport level while the job stays PENDING.
    const worker = new Worker(ctx.tq.name, async () => {
      throw new UnrecoverableError('database unreachable');
    }, { connection: ctx.redis });
    const failedOnce = new Promise<void>((resolve) => worker.on('failed', () => resolve()));
    await enqueueStagingJob(ctx.tq.queue, stuck);
    await failedOnce;
    await worker.close();
    expect(await ctx.tq.queue.getJobState(stuck)).toBe('failed');

    expect(await repairStagingQueue(deps)).toEqual({ scanned: 2, queued: 1, added: 0, replaced: 1, errors: 0 });
    expect(await ctx.tq.queue.getJobState(stuck)).toBe('waiting');
    expect(await ctx.tq.queue.getJobState(parked)).toBe('delayed');
  });
});

describe('repair-queue-cli', () => {
  it('repairs the queue of the configured suffix and prints the counts', async () => {
    const id = await submitOne();
    await ctx.tq.deleteKeys();
    const here = path.dirname(fileURLToPath(import.meta.url));
    const tsx = path.resolve(here, '../../../../node_modules/.bin/tsx');
    const { stdout } = await promisify(execFile)(tsx, [path.join(here, 'repair-queue-cli.ts')], {
      cwd: path.resolve(here, '../..'),
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: ctx.databaseUrl,
        VALKEY_URL: process.env.VALKEY_URL ?? 'redis://127.0.0.1:6379',
        QUEUE_SUFFIX: ctx.tq.suffix,
        PROVIDER_API_TOKEN: 'r8_test_token',
        PROVIDER_WEBHOOK_BASE_URL: 'https://staging.example.com',
        AI_STAGING_USER_HASH_SECRET: 'ab'.repeat(32),
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_BUCKET: 'staging-test',
      },
      // A hang guard only: starting tsx cold on a busy machine has taken over 30 s.
      timeout: 100_000,
    });
    expect(JSON.parse(stdout.trim())).toEqual({ queue: ctx.tq.name, scanned: 1, queued: 0, added: 1, replaced: 0, errors: 0 });
    expect(await ctx.tq.queue.getJobState(id)).toBe('waiting');
  });
});
