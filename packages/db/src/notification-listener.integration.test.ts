// The process-wide LISTEN connection: it hears what any session sends on its channel, comes back
// after its backend ends (a Postgres restart looks the same to it as pg_terminate_backend), keeps
// trying while the server refuses connections, and leaves no session behind once closed.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createDb } from './client';
import type { Db } from './client';
import { listenForNotifications } from './notification-listener';
import type { NotificationListener, NotificationListenerOptions } from './notification-listener';
import { unreachableDatabaseUrl } from './testing/broken-database-urls';

const databaseUrl = process.env.DATABASE_URL ?? '';
const admin = new pg.Client({ connectionString: databaseUrl });
const dbs: Db[] = [];
const listeners: NotificationListener[] = [];

beforeAll(async () => {
  await admin.connect();
});

afterAll(async () => {
  await Promise.all(listeners.map((listener) => listener.close()));
  await Promise.all(dbs.map((db) => db.$disconnect()));
  await admin.end();
});

/** A channel of this test alone: other test files share the database and notify on theirs. */
function uniqueChannel(): string {
  return `test_${randomUUID().replaceAll('-', '')}`;
}

/** Callbacks as a queue of what happened, each awaited as the next thing the test expects. */
function recorder() {
  const events: string[] = [];
  const waiters: { match: (event: string) => boolean; resolve: () => void }[] = [];
  const push = (event: string) => {
    events.push(event);
    for (const waiter of waiters.filter((w) => w.match(event))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  return {
    events,
    callbacks: {
      onNotification: (payload: string) => push(`notification:${payload}`),
      onListening: (resumed: boolean) => push(resumed ? 'listening:resumed' : 'listening:first'),
      onConnectionLost: (_error: unknown, retryInMs: number) => push(`lost:${retryInMs}`),
    } satisfies Omit<NotificationListenerOptions, 'channel'>,
    /** Resolves once an event matching `match` was recorded (already or later). */
    when(match: (event: string) => boolean): Promise<void> {
      if (events.some(match)) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
  };
}

function start(url: string, channel: string, options: Partial<NotificationListenerOptions> = {}) {
  const db = createDb(url, { maxConnections: 1 });
  dbs.push(db);
  const record = recorder();
  const listener = listenForNotifications(db, { channel, ...record.callbacks, ...options });
  listeners.push(listener);
  return { record, listener };
}

async function listeningSessions(channel: string): Promise<number[]> {
  const result = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [`listen:${channel}`]);
  return result.rows.map((row) => row.pid);
}

it('hears notifications on its channel only, from any session, after the sender commits', async () => {
  const channel = uniqueChannel();
  const { record } = start(databaseUrl, channel);
  await record.when((e) => e === 'listening:first');

  await admin.query('BEGIN');
  await admin.query('SELECT pg_notify($1, $2)', [channel, 'inside a transaction']);
  await admin.query('SELECT pg_notify($1, $2)', [uniqueChannel(), 'another channel']);
  expect(record.events).toEqual(['listening:first']);
  await admin.query('COMMIT');
  await admin.query('SELECT pg_notify($1, $2)', [channel, 'second']);

  await record.when((e) => e === 'notification:second');
  expect(record.events).toEqual(['listening:first', 'notification:inside a transaction', 'notification:second']);
});

it('listens again after its backend is terminated, and says that it resumed', async () => {
  const channel = uniqueChannel();
  const { record } = start(databaseUrl, channel, { minRetryMs: 50 });
  await record.when((e) => e === 'listening:first');
  const [pid] = await listeningSessions(channel);
  expect(pid).toBeDefined();

  await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  await record.when((e) => e === 'listening:resumed');
  expect(record.events.filter((e) => e.startsWith('lost:'))).toEqual(['lost:50']);
  const [newPid] = await listeningSessions(channel);
  expect(newPid).not.toBe(pid);

  await admin.query('SELECT pg_notify($1, $2)', [channel, 'after the restart']);
  await record.when((e) => e === 'notification:after the restart');
});

it('keeps trying, with a growing pause, while the server refuses connections', async () => {
  const { record, listener } = start(unreachableDatabaseUrl(databaseUrl), uniqueChannel(), { minRetryMs: 10, maxRetryMs: 40 });
  await record.when((e) => record.events.filter((x) => x.startsWith('lost:')).length >= 4 && e.startsWith('lost:'));
  await listener.close();
  expect(record.events.slice(0, 4)).toEqual(['lost:10', 'lost:20', 'lost:40', 'lost:40']);
});

it('ends its session when closed and does not come back', async () => {
  const channel = uniqueChannel();
  const closing = start(databaseUrl, channel, { minRetryMs: 10 });
  const staying = start(databaseUrl, channel);
  await closing.record.when((e) => e === 'listening:first');
  await staying.record.when((e) => e === 'listening:first');
  expect(await listeningSessions(channel)).toHaveLength(2);

  await closing.listener.close();
  // pg_stat_activity drops a session once its backend has exited, which follows the close shortly.
  while ((await listeningSessions(channel)).length > 1) await new Promise((resolve) => setTimeout(resolve, 20));
  await admin.query('SELECT pg_notify($1, $2)', [channel, 'one listener left']);
  await staying.record.when((e) => e === 'notification:one listener left');
  expect(closing.record.events).toEqual(['listening:first']);
});
