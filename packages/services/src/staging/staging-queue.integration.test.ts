import { randomUUID } from 'node:crypto';
import { UnrecoverableError, Worker } from 'bullmq';
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { readMessage } from '../queue-contract';
import {
  STAGING_MESSAGE,
  enqueueStagingJob,
  removeWaitingStagingJob,
  wakeStagingJob,
} from './staging-queue';
import type { TStagingJobPayload } from './staging-queue';
import { openTestQueue, openTestRedis } from './testing/staging-test-kit';
import type { TestQueue } from './testing/staging-test-kit';

let redis: Redis;
let tq: TestQueue;
const workers: Array<Pick<Worker, 'close'>> = [];

beforeAll(() => {
  redis = openTestRedis();
});

afterAll(() => {
  redis.disconnect();
});

beforeEach(async () => {
  tq = await openTestQueue(redis);
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.close(true)));
  await tq.close();
});

/** A worker that holds every job it takes until released, so a test can look at an active job. */
function holdingWorker(): { taken: Promise<Job>; release: () => void } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let taken!: (job: Job) => void;
  const takenPromise = new Promise<Job>((resolve) => (taken = resolve));
  const worker = new Worker<TStagingJobPayload>(
    tq.name,
    async (job) => {
      taken(job);
      await released;
    },
    { connection: redis, autorun: true },
  );
  workers.push(worker);
  return { taken: takenPromise, release };
}

/** Enqueues `aiJobId` and waits until a worker holds it active; call the result to let it finish. */
async function activeMessage(aiJobId: string): Promise<() => void> {
  const { taken, release } = holdingWorker();
  await enqueueStagingJob(tq.queue, aiJobId);
  await taken;
  return release;
}

async function failedJob(aiJobId: string): Promise<void> {
  const worker = new Worker(tq.name, async () => {
    throw new UnrecoverableError('transport gave up');
  }, { connection: redis });
  workers.push(worker);
  const failed = new Promise<void>((resolve) => worker.on('failed', () => resolve()));
  await enqueueStagingJob(tq.queue, aiJobId);
  await failed;
  await worker.close();
}

describe('enqueueStagingJob', () => {
  it('adds one message with jobId = aiJobId and the versioned payload, idempotently', async () => {
    const id = randomUUID();
    await enqueueStagingJob(tq.queue, id);
    await enqueueStagingJob(tq.queue, id);
    const job = await tq.queue.getJob(id);
    expect(job).toMatchObject({ id, name: STAGING_MESSAGE.jobName, data: { aiJobId: id, v: 1 } });
    expect(job?.opts).toMatchObject({ attempts: 5, removeOnComplete: true });
    expect(await tq.queue.count()).toBe(1);
  });

  it('validates the payload on enqueue and on consume', async () => {
    await expect(enqueueStagingJob(tq.queue, '')).rejects.toThrow();
    expect(await tq.queue.count()).toBe(0);
    const read = (data: unknown, name = STAGING_MESSAGE.jobName) => readMessage(STAGING_MESSAGE, { name, data });
    expect(read({ aiJobId: 'x', v: 1 })).toEqual({ ok: true, payload: { aiJobId: 'x', v: 1 } });
    const remembered = { aiJobId: 'x', v: 1, throttleCount: 2, absenceSeen: { attemptId: 'a', atMs: 5 } };
    expect(read(remembered)).toEqual({ ok: true, payload: remembered });
    expect(read({ aiJobId: 'x', v: 2 })).toEqual({ ok: false, problems: ['v: invalid_value'] });
    expect(read({ aiJobId: 'x', v: 1, extra: true })).toEqual({ ok: false, problems: ['(payload): unrecognized_keys'] });
    expect(read({ aiJobId: 'x', v: 1, throttleCount: -1 })).toMatchObject({ ok: false });
    expect(read({ aiJobId: 'x', v: 1 }, 'stage-room')).toEqual({ ok: false, problems: ['job name is not room-staging'] });
  });
});

describe('wakeStagingJob', () => {
  it('promotes a delayed message', async () => {
    const id = randomUUID();
    await enqueueStagingJob(tq.queue, id, { delayMs: 600_000 });
    expect(await tq.queue.getJobState(id)).toBe('delayed');
    expect(await wakeStagingJob(tq.queue, id)).toBe('promoted');
    expect(await tq.queue.getJobState(id)).toBe('waiting');
  });

  it('leaves a waiting message alone', async () => {
    const id = randomUUID();
    await enqueueStagingJob(tq.queue, id);
    expect(await wakeStagingJob(tq.queue, id)).toBe('already-queued');
    expect(await tq.queue.count()).toBe(1);
  });

  it('re-adds a missing message and replaces a failed one', async () => {
    const missing = randomUUID();
    expect(await wakeStagingJob(tq.queue, missing)).toBe('added');
    expect(await tq.queue.getJobState(missing)).toBe('waiting');

    const failed = randomUUID();
    await failedJob(failed);
    expect(await tq.queue.getJobState(failed)).toBe('failed');
    expect(await wakeStagingJob(tq.queue, failed)).toBe('replaced');
    expect(await tq.queue.getJobState(failed)).toBe('waiting');
  });
});

describe('removeWaitingStagingJob', () => {
  it('removes waiting and delayed messages', async () => {
    const waiting = randomUUID();
    const delayed = randomUUID();
    await enqueueStagingJob(tq.queue, waiting);
    await enqueueStagingJob(tq.queue, delayed, { delayMs: 600_000 });
    expect(await removeWaitingStagingJob(tq.queue, waiting)).toBe('removed');
    expect(await removeWaitingStagingJob(tq.queue, delayed)).toBe('removed');
    expect(await tq.queue.getJob(waiting)).toBeUndefined();
    expect(await tq.queue.getJob(delayed)).toBeUndefined();
    expect(await removeWaitingStagingJob(tq.queue, waiting)).toBe('missing');
  });

  it('never removes an active message, and a wake leaves it alone too', async () => {
    const id = randomUUID();
    const release = await activeMessage(id);
    expect(await removeWaitingStagingJob(tq.queue, id)).toBe('not-waiting');
    expect(await wakeStagingJob(tq.queue, id)).toBe('already-queued');
    expect(await tq.queue.getJobState(id)).toBe('active');
    release();
  });
});
