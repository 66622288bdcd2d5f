// A Postgres backend that goes away (restart, failover, pg_terminate_backend) must cost the
// statements on it, never the process: an 'error' event nobody listens to ends a Node process.
// Prepared statements: each text under a name of its own, parsed once per connection.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { EventEmitter } from 'node:events';
import pg from 'pg';
import { Prisma, createDb, queryPreparedRows, queryRows, sqlPoolOf } from './client';
import type { Db } from './client';

const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
const dbs: Db[] = [];

beforeAll(async () => {
  await admin.connect();
});

afterAll(async () => {
  await Promise.all(dbs.map((db) => db.$disconnect()));
  await admin.end();
});

function newDb(): { db: Db; pool: pg.Pool } {
  const db = createDb(process.env.DATABASE_URL ?? '', { maxConnections: 2 });
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
  const db = createDb(process.env.DATABASE_URL ?? '', { maxConnections: 1 });
  dbs.push(db);
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
