import { randomUUID } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { startPrivateRedis } from '@staging/stack/private-redis';
import { createRedis, isRedisConnectionError, isRedisUnavailable, queueNames, searchDocumentKey, waitForRedis } from './queues';

const VALKEY_URL = 'redis://127.0.0.1:6379';
const opened: Redis[] = [];

function open(role: 'worker' | 'producer'): Redis {
  const redis = createRedis(VALKEY_URL, { role, connectionName: `platform-test-${role}`, onError: () => {} });
  opened.push(redis);
  return redis;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((redis) => redis.quit().catch(() => redis.disconnect())));
});

describe('createRedis against the local Redis', () => {
  it('configures the worker role as BullMQ requires and the producer role to fail fast', () => {
    expect(open('worker').options).toMatchObject({ maxRetriesPerRequest: null, enableOfflineQueue: true });
    expect(open('producer').options).toMatchObject({ maxRetriesPerRequest: 1, enableOfflineQueue: false });
  });

  it('delivers a job from a producer connection to a worker connection', async () => {
    const names = queueNames(`-platform-test-${randomUUID()}`);
    const producer = open('producer');
    await waitForRedis(producer);
    const queue = new Queue(names.staging, { connection: producer });
    const worker = new Worker(names.staging, async (job) => ({ echoed: job.data as unknown }), {
      connection: open('worker'),
      concurrency: 1,
    });
    try {
      const finished = new Promise<unknown>((resolve, reject) => {
        worker.on('completed', (_job, result) => resolve(result));
        worker.on('failed', (_job, error) => reject(error));
      });
      await queue.add('stage', { n: 7 }, { jobId: 'job-7' });
      await expect(finished).resolves.toEqual({ echoed: { n: 7 } });
    } finally {
      await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });

  it('refuses a producer connection for a BullMQ Worker (blocking commands need retries off)', () => {
    const names = queueNames(`-platform-test-${randomUUID()}`);
    const producer = open('producer');
    // BullMQ duplicates the connection for its blocking client before rejecting it and never
    // closes that copy; track copies so afterEach closes them.
    const duplicate = producer.duplicate.bind(producer);
    producer.duplicate = (...args) => {
      const copy = duplicate(...args);
      opened.push(copy);
      return copy;
    };
    expect(() => new Worker(names.staging, async () => undefined, { connection: producer, autorun: false })).toThrow(
      /maxRetriesPerRequest must be null/,
    );
  });

  it('lets plain commands use the search document key', async () => {
    const redis = open('producer');
    await waitForRedis(redis);
    const key = searchDocumentKey(`platform-test-${randomUUID()}`);
    try {
      await redis.hset(key, 'images', JSON.stringify([{ id: 'i1', isStyled: false }]));
      expect(JSON.parse((await redis.hget(key, 'images')) ?? 'null')).toEqual([{ id: 'i1', isStyled: false }]);
    } finally {
      await redis.del(key);
    }
  });

  it('fails a producer command quickly when Redis is unreachable instead of queueing it', async () => {
    // Port 1 on loopback refuses connections at once.
    const redis = createRedis('redis://127.0.0.1:1', { role: 'producer', commandTimeoutMs: 200, onError: () => {} });
    try {
      // Refused by the offline-queue guard, not by a command timeout: nothing waited for Redis.
      const refused: unknown = await redis.set(`platform-test-${randomUUID()}`, '1').catch((error: unknown) => error);
      expect(refused).toEqual(expect.objectContaining({ message: expect.stringMatching(/enableOfflineQueue/) }));
      expect(isRedisUnavailable(refused)).toBe(true);
      const notReady: unknown = await waitForRedis(redis, 300).catch((error: unknown) => error);
      expect(notReady).toEqual(expect.objectContaining({ message: expect.stringMatching(/not ready after 300 ms/) }));
      expect(isRedisUnavailable(notReady)).toBe(true);
    } finally {
      redis.disconnect();
      // ioredis arms a 2 s "destroy the stream" timer on disconnect even when the stream is already
      // closed, and a 200 ms timer for the rejected command; let both lapse so no timer outlives the test.
      await new Promise((resolve) => setTimeout(resolve, 2_100));
    }
  });

  it('tells Redis being out of reach (a command timed out or its connection closed) from Redis answering an error', async () => {
    const redis = createRedis(VALKEY_URL, { role: 'producer', commandTimeoutMs: 100, onError: () => {} });
    opened.push(redis);
    await waitForRedis(redis);
    const failureOf = (command: Promise<unknown>) => command.then(() => 'no failure', (error: unknown) => error);

    const answered = await failureOf(redis.call('NO-SUCH-COMMAND'));
    expect(answered).toEqual(expect.objectContaining({ name: 'ReplyError' }));
    expect(isRedisUnavailable(answered)).toBe(false);
    expect(isRedisUnavailable(new Error('connect ECONNREFUSED'))).toBe(false);
    expect(isRedisUnavailable(undefined)).toBe(false);

    // The server keeps blocking after the client gave up, so the next command waits behind it.
    const timedOut = await failureOf(redis.blpop(`platform-test-${randomUUID()}`, 5));
    expect(timedOut).toEqual(expect.objectContaining({ message: 'Command timed out' }));
    expect(isRedisUnavailable(timedOut)).toBe(true);

    const closing = failureOf(redis.get('x'));
    redis.disconnect();
    expect(isRedisUnavailable(await closing)).toBe(true);
  });

  it('counts a producer command cut off by a Redis that stopped as out of reach (retries per request used up)', async () => {
    const server = await startPrivateRedis();
    const redis = createRedis(server.url, { role: 'producer', commandTimeoutMs: 60_000, onError: () => {} });
    opened.push(redis);
    try {
      await waitForRedis(redis);
      const waiting = redis.blpop(`platform-test-${randomUUID()}`, 30).then(() => 'no failure', (error: unknown) => error);
      await server.stop();
      const cutOff = await waiting;
      expect(cutOff).toEqual(expect.objectContaining({ name: 'MaxRetriesPerRequestError' }));
      expect(isRedisUnavailable(cutOff)).toBe(true);
    } finally {
      await server.stop();
    }
  });

  it("tells a connection's socket errors, which a BullMQ worker relays as its own, from other errors", async () => {
    const server = await startPrivateRedis();
    const firstError = () => {
      let settle: (error: Error) => void = () => undefined;
      const first = new Promise<Error>((resolve) => (settle = resolve));
      return { first, listener: (error: Error) => settle(error) };
    };
    const ofConnection = firstError();
    const ofWorker = firstError();
    const redis = createRedis(server.url, { role: 'worker', onError: ofConnection.listener });
    opened.push(redis);
    const worker = new Worker(queueNames(`-platform-test-${randomUUID()}`).staging, async () => undefined, { connection: redis });
    worker.on('error', ofWorker.listener);
    let serverDown = false;
    try {
      await worker.waitUntilReady();
      await server.stop();
      serverDown = true;
      expect(isRedisConnectionError(await ofConnection.first)).toBe(true);
      expect(isRedisConnectionError(await ofWorker.first)).toBe(true);

      // Redis answering, a command given up on, and anything else are not the connection's own.
      const answered = redis.call('NO-SUCH-COMMAND').then(
        () => 'no failure',
        (error: unknown) => error,
      );
      await server.restartEmpty();
      serverDown = false;
      expect(await answered).toEqual(expect.objectContaining({ name: 'ReplyError' }));
      expect(isRedisConnectionError(await answered)).toBe(false);
      expect(isRedisConnectionError(new Error('Connection is closed.'))).toBe(false);
      expect(isRedisConnectionError(Object.assign(new Error('Reached the max retries per request limit'), { name: 'MaxRetriesPerRequestError' }))).toBe(false);
      expect(isRedisConnectionError(undefined)).toBe(false);
    } finally {
      // Closing needs a server and a connection to it: the worker says goodbye before it ends.
      if (serverDown) await server.restartEmpty();
      await waitForRedis(redis);
      await worker.close();
      await server.stop();
    }
  });

  it('waits for a worker connection to become ready', async () => {
    const redis = open('worker');
    await waitForRedis(redis);
    expect(redis.status).toBe('ready');
    await expect(redis.ping()).resolves.toBe('PONG');
  });
});
