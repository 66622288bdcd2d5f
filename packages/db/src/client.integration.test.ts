// A Postgres backend that goes away (restart, failover, pg_terminate_backend) must cost the
// statements on it, never the process: an 'error' event nobody listens to ends a Node process.
// A read sent on a connection whose backend ended unnoticed is tried once more; a write is not.
// Which failures mean "the database cannot serve for now" (the api answers them 503), and which not.
// Prepared statements: each text under a name of its own, parsed once per connection.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import type { EventEmitter } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { Prisma, createDb, isDatabaseUnavailable, isLostConnection, queryPreparedRows, queryRows, sqlPoolOf } from './client';
import type { Db } from './client';
import { missingDatabaseUrl, unreachableDatabaseUrl } from './testing/broken-database-urls';

const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
const dbs: Db[] = [];

beforeAll(async () => {
  await admin.connect();
});

afterAll(async () => {
  await Promise.all(dbs.map((db) => db.$disconnect()));
  await admin.end();
});

function newDb(maxConnections = 2): { db: Db; pool: pg.Pool } {
  const db = createDb(process.env.DATABASE_URL ?? '', { maxConnections });
  dbs.push(db);
  return { db, pool: sqlPoolOf(db) };
}

async function backendPid(client: pg.PoolClient): Promise<number | undefined> {
  return (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
}

/** The next `event` of `emitter` (not `events.once`, which would reject on the 'error' under test). */
function next(emitter: EventEmitter, event: string): Promise<void> {
  return new Promise((resolve) => emitter.once(event, () => resolve()));
}

async function expectStillServes(db: Db): Promise<void> {
  expect(await queryRows(db, Prisma.sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
}

it('survives the backend of a checked-out connection ending between statements', async () => {
  const { db, pool } = newDb();
  const client = await pool.connect();
  // Without a listener the termination below would throw out of pg's socket handler.
  expect(client.listenerCount('error')).toBeGreaterThan(0);
  const pid = await backendPid(client);
  const ended = next(client, 'end');
  await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  await ended;
  client.release(new Error('backend terminated'));
  await expectStillServes(db);
});

it('survives an idle connection ending before the ORM has connected', async () => {
  const { db, pool } = newDb();
  const client = await pool.connect();
  const pid = await backendPid(client);
  client.release();
  expect(pool.listenerCount('error')).toBeGreaterThan(0);
  const removed = next(pool, 'remove');
  await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  await removed;
  await expectStillServes(db);
});

it('prepares each statement text once per connection, under a name of its own', async () => {
  const { db } = newDb(1);
  const doubled = (n: number) => Prisma.sql`SELECT ${n}::int * 2 AS value`;
  const negated = (n: number) => Prisma.sql`SELECT -${n}::int AS value`;
  // Alternating two texts on one connection: pg refuses a name already prepared with another text.
  for (const n of [1, 2, 3]) {
    expect(await queryPreparedRows(db, doubled(n))).toEqual([{ value: n * 2 }]);
    expect(await queryPreparedRows(db, negated(n))).toEqual([{ value: -n }]);
  }
  const prepared = await queryRows<{ statement: string }>(
    db,
    Prisma.sql`SELECT statement FROM pg_prepared_statements WHERE from_sql = false`,
  );
  expect(prepared.map((row) => row.statement).sort()).toEqual([doubled(0).text, negated(0).text].sort());
});

/**
 * Ends backend `pid` from another process while this one's event loop is blocked, and returns once
 * the backend has exited (the second argument of pg_terminate_backend waits for it). The pooled
 * connection has not read the news yet, so the next statement is sent on it: the race a chaos run
 * hit when an idle api connection was terminated just before a request took it.
 */
function terminateUnnoticed(pid: number): void {
  const script = `const pg = require('pg');
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    client.connect().then(() => client.query('SELECT pg_terminate_backend($1, 10000)', [${pid}])).then(() => client.end());`;
  execFileSync(process.execPath, ['-e', script], { cwd: process.cwd(), stdio: 'inherit', timeout: 30_000 });
}

async function pidOf(db: Db): Promise<number> {
  const [row] = await queryRows<{ pid: number }>(db, Prisma.sql`SELECT pg_backend_pid() AS pid`);
  if (row === undefined) throw new Error('no backend pid');
  return row.pid;
}

/** What `run` rejects with; fails the test when it resolves. */
async function rejectionOf(run: Promise<unknown>): Promise<unknown> {
  return run.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

it('fails a statement sent on a connection whose backend ended unnoticed, as a lost connection', async () => {
  const { db } = newDb(1);
  terminateUnnoticed(await pidOf(db));
  // A raw statement is never retried, so this shows the race reproduced.
  expect(isLostConnection(await rejectionOf(db.$queryRaw`SELECT 1`))).toBe(true);
  expect(isLostConnection(await rejectionOf(db.$queryRaw`SELECT 1 +`))).toBe(false);
  await expectStillServes(db);
});

it('tries a read once more on another connection when its connection was lost', async () => {
  const { db } = newDb(1);
  const before = await db.session.count();
  const pid = await pidOf(db);
  terminateUnnoticed(pid);
  await expect(db.session.count()).resolves.toBe(before);
  expect(await pidOf(db)).not.toBe(pid);
});

it('does not try a write again: a session ended during COMMIT may have committed it', async () => {
  const { db } = newDb(1);
  terminateUnnoticed(await pidOf(db));
  expect(isLostConnection(await rejectionOf(db.session.deleteMany({ where: { id: 'no-such-session' } })))).toBe(true);
});

it('keeps a read inside its transaction when the connection of that transaction was lost', async () => {
  const { db } = newDb();
  const failed = db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
    terminateUnnoticed(row?.pid ?? 0);
    return tx.session.count();
  });
  expect(isLostConnection(await rejectionOf(failed))).toBe(true);
  await expectStillServes(db);
});

it('calls a database nobody answers for, or a session ended under a statement, unavailable', async () => {
  const unreachable = createDb(unreachableDatabaseUrl(process.env.DATABASE_URL ?? ''), { maxConnections: 1 });
  dbs.push(unreachable);
  expect(isDatabaseUnavailable(await rejectionOf(unreachable.session.count()))).toBe(true);
  expect(isDatabaseUnavailable(await rejectionOf(unreachable.$executeRaw`DELETE FROM sessions WHERE false`))).toBe(true);
  expect(isDatabaseUnavailable(await rejectionOf(queryRows(unreachable, Prisma.sql`SELECT 1`)))).toBe(true);

  const { db } = newDb(1);
  terminateUnnoticed(await pidOf(db));
  expect(isDatabaseUnavailable(await rejectionOf(db.session.deleteMany({ where: { id: 'no-such-session' } })))).toBe(true);
  terminateUnnoticed(await pidOf(db));
  expect(isDatabaseUnavailable(await rejectionOf(queryRows(db, Prisma.sql`SELECT 1`)))).toBe(true);
});

it('calls a server that closes the socket without a word unavailable, through Prisma and the pool', async () => {
  // What a killed server or a dropped host looks like to pg: the socket ends, no FATAL first.
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(process.env.DATABASE_URL ?? '');
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  const closing = createDb(url.toString(), { maxConnections: 1 });
  dbs.push(closing);
  try {
    expect(isDatabaseUnavailable(await rejectionOf(closing.session.count()))).toBe(true);
    expect(isDatabaseUnavailable(await rejectionOf(queryRows(closing, Prisma.sql`SELECT 1`)))).toBe(true);
  } finally {
    server.close();
  }
});

it('does not call a socket error of another client unavailable: storage down is not the database down', () => {
  const fromStorage = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' });
  expect(isDatabaseUnavailable(fromStorage)).toBe(false);
  expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9000'), { code: 'ECONNREFUSED' }))).toBe(false);
});

it('does not call a wrong statement or a missing database unavailable: trying again cannot help', async () => {
  const { db } = newDb(1);
  expect(isDatabaseUnavailable(await rejectionOf(db.$queryRaw`SELECT 1 +`))).toBe(false);
  expect(isDatabaseUnavailable(await rejectionOf(queryRows(db, Prisma.sql`SELECT 1 +`)))).toBe(false);
  expect(isDatabaseUnavailable(new Error('anything else'))).toBe(false);
  const wrong = createDb(missingDatabaseUrl(process.env.DATABASE_URL ?? ''), { maxConnections: 1 });
  dbs.push(wrong);
  expect(isDatabaseUnavailable(await rejectionOf(wrong.session.count()))).toBe(false);
});
