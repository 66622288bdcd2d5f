import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { z } from 'zod';
import { Prisma, PrismaClient } from './generated/prisma/client';

export { Prisma, PrismaClient } from './generated/prisma/client';
export type * from './generated/prisma/client';

/** Prisma Client as {@link createDb} makes it: with reads retried once on a lost connection. */
export type Db = ReturnType<typeof withReadsRetriedOnLostConnection>;

/** The client an interactive `db.$transaction(async (tx) => …)` hands its callback. */
export type DbTransaction = Parameters<Parameters<Db['$transaction']>[0]>[0];

/** The `pg` pool under a {@link Db}: one statement, no ORM in between. */
export type SqlPool = pg.Pool;

/** What a failed statement on the {@link SqlPool} throws; `code` is the SQLSTATE. */
export const DatabaseError = pg.DatabaseError;

// A registry symbol on the client, not a module-level WeakMap: a bundler (Next.js) may load this
// module more than once, and the client made by one copy must still be found by the others.
const POOL = Symbol.for('@staging/db/sql-pool');
type WithPool = Db & { [POOL]?: SqlPool };

/**
 * Prisma Client over the `pg` driver adapter: no native query engine is needed at runtime,
 * which matters on machines that cannot download Prisma's engines. The adapter runs on a pool
 * of our own, which {@link sqlPoolOf} hands to the few hot paths that skip the ORM, so they
 * share its connections; `$disconnect` ends it.
 */
export function createDb(databaseUrl: string, options: { maxConnections?: number } = {}): Db {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: options.maxConnections ?? 10 });
  // A backend can end (restart, failover, pg_terminate_backend) while its connection sits idle
  // before Prisma has connected (and added its own pool listener), or checked out between
  // statements with nobody listening; pg then emits 'error', and an unheard 'error' ends the
  // process. The statements on that connection fail on their own and the pool drops it, so
  // the event needs a listener, not handling.
  const ignore = (): void => undefined;
  pool.on('error', ignore);
  pool.on('connect', (client) => client.on('error', ignore));
  const client = new PrismaClient({
    adapter: new PrismaPg(pool, { disposeExternalPool: true }),
    // Prisma's defaults (2 s to get a connection, 5 s for the whole transaction) fail a burst that
    // takes turns on one row, e.g. twenty photos dropped on one property, each waiting for the
    // property's lock, as soon as the machine is busy: the later ones answered 500. Interactive
    // transactions here are short; these bound a stuck one without failing a queue of healthy ones.
    transactionOptions: { maxWait: 15_000, timeout: 30_000 },
  });
  Object.defineProperty(client, POOL, { value: pool, enumerable: false });
  return withReadsRetriedOnLostConnection(client);
}

// SQLSTATEs of a session the server ended (pg_terminate_backend, a restart or a crashed
// backend): https://www.postgresql.org/docs/current/errcodes-appendix.html
const SESSION_ENDED_CODES: ReadonlySet<string> = new Set(['57P01', '57P02']);

// SQLSTATEs of a server that takes no sessions now: starting up or shutting down (57P03), or at
// max_connections (53300, which Prisma's adapter reports as TooManyConnections).
const NO_SESSION_NOW_CODES: ReadonlySet<string> = new Set(['57P03', '53300']);

// Socket errors of a server that is not there or went away mid-statement. pg passes them through
// as Node raised them, so they count only when the pool raised them (see queryPool): the same codes
// from storage or the provider say nothing about the database.
const UNREACHABLE_SOCKET_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);

// pg's own words when the server closes the socket without a FATAL first (killed, OOM, a failover
// that drops the host); Prisma's adapter rethrows that error unchanged.
const PG_CONNECTION_LOST_MESSAGE = 'Connection terminated unexpectedly';

const RAISED_BY_POOL = Symbol('@staging/db/raised-by-pool');

const ZDriverAdapterError = z.object({
  cause: z.object({
    kind: z.string().optional(),
    /** The SQLSTATE, for kind `postgres`. */
    code: z.string().optional(),
    /** The server's own code, whatever the kind Prisma mapped it to. */
    originalCode: z.string().optional(),
  }),
});

export type DriverAdapterCause = z.infer<typeof ZDriverAdapterError>['cause'];

/**
 * The database's error under a Prisma error: Prisma's pg driver adapter puts it in
 * `meta.driverAdapterError`, for raw queries (P2010) and ORM calls (P2002, P2003, …) alike.
 */
export function driverAdapterCauseOf(error: unknown): DriverAdapterCause | undefined {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return undefined;
  const parsed = ZDriverAdapterError.safeParse(error.meta?.['driverAdapterError']);
  return parsed.success ? parsed.data.cause : undefined;
}

/** Whether `error` says the connection under the statement was gone, not that the statement was wrong. */
export function isLostConnection(error: unknown): boolean {
  const cause = driverAdapterCauseOf(error);
  return cause?.kind === 'ConnectionClosed' || (cause?.kind === 'postgres' && SESSION_ENDED_CODES.has(cause.code ?? ''));
}

/**
 * Whether `error` says Postgres could not serve the statement for now (unreachable, restarting, out
 * of connections, or the session ended under it), from Prisma or from a statement run by
 * {@link queryPool}. A wrong statement, a missing database or refused credentials are not: trying
 * again cannot help those. A wrong host or port cannot be told from a host that is down, and
 * counts as unavailable (Prisma's adapter calls both DatabaseNotReachable).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (isLostConnection(error)) return true;
  const cause = driverAdapterCauseOf(error);
  if (cause !== undefined) {
    return cause.kind === 'DatabaseNotReachable' || cause.kind === 'TooManyConnections' || cause.kind === 'SocketTimeout' ||
      (cause.kind === 'postgres' && NO_SESSION_NOW_CODES.has(cause.code ?? ''));
  }
  if (error instanceof DatabaseError) {
    return SESSION_ENDED_CODES.has(error.code ?? '') || NO_SESSION_NOW_CODES.has(error.code ?? '');
  }
  // Not `instanceof Error`: errors Node raises may come from another realm (Jest's, for one).
  if (typeof error !== 'object' || error === null) return false;
  if ('message' in error && error.message === PG_CONNECTION_LOST_MESSAGE) return true;
  return RAISED_BY_POOL in error && 'code' in error && typeof error.code === 'string' && UNREACHABLE_SOCKET_CODES.has(error.code);
}

/**
 * A pooled connection whose backend ended while it sat idle fails the next statement sent on it,
 * even though that statement never ran: the pool cannot know until it reads the socket. The pool
 * then drops the connection, so a read tried once more runs on another one. Only reads: a write
 * whose session ended during COMMIT may have committed, and running it again could apply it twice.
 * Whenever the retry fails the first error is thrown: inside a transaction the retry meets the same
 * dead connection, and its own error is pg's bare "Connection terminated unexpectedly", not the
 * Prisma error that callers and {@link isLostConnection} recognize.
 */
async function retriedOnLostConnection<Args, Result>({ args, query }: { args: Args; query: (args: Args) => Promise<Result> }) {
  try {
    return await query(args);
  } catch (error) {
    if (!isLostConnection(error)) throw error;
    return query(args).catch(() => Promise.reject(error));
  }
}

// Hooks on the operations that change nothing only, so writes take Prisma's path unwrapped.
function withReadsRetriedOnLostConnection(client: PrismaClient) {
  return client.$extends({
    name: 'reads-retried-on-lost-connection',
    query: {
      $allModels: {
        findUnique: retriedOnLostConnection,
        findUniqueOrThrow: retriedOnLostConnection,
        findFirst: retriedOnLostConnection,
        findFirstOrThrow: retriedOnLostConnection,
        findMany: retriedOnLostConnection,
        count: retriedOnLostConnection,
        aggregate: retriedOnLostConnection,
        groupBy: retriedOnLostConnection,
      },
    },
  });
}

/**
 * The pool under `db`, for hot paths where Prisma's per-query cost (about 0.4 ms of CPU, and far
 * more for hundreds of rows) is most of the work: webhook receipts, bulk inventory writes.
 * Values come back as `pg` parses them (e.g. `numeric` as a string, `bigint` count as a string).
 */
export function sqlPoolOf(db: Db): SqlPool {
  const pool = (db as WithPool)[POOL];
  if (pool === undefined) throw new Error('sqlPoolOf: this client was not made by createDb');
  return pool;
}

/**
 * Runs a statement composed with `Prisma.sql` (parameters stay parameters) on the pool under
 * `db` and returns its rows as `pg` parses them.
 */
export async function queryRows<Row extends object>(db: Db, statement: Prisma.Sql): Promise<Row[]> {
  return (await queryPool<Row>(sqlPoolOf(db), { text: statement.text, values: statement.values })).rows;
}

/**
 * One statement on the pool. Every raw statement goes through here, so that a socket error it
 * fails with is known to be the database's (see {@link isDatabaseUnavailable}).
 */
export async function queryPool<Row extends object>(pool: SqlPool, statement: pg.QueryConfig): Promise<pg.QueryResult<Row>> {
  try {
    return await pool.query<Row>(statement);
  } catch (error) {
    // Enumerable, so a copy made with Object.assign keeps it (tRPC copies a cause from another realm).
    if (typeof error === 'object' && error !== null) Object.defineProperty(error, RAISED_BY_POOL, { value: true, enumerable: true });
    throw error;
  }
}

/**
 * {@link queryRows} as a named prepared statement: each connection parses it once, and after five
 * runs Postgres may keep one generic plan instead of planning every call. Only for a hot statement
 * whose text is one of a fixed few (each text stays prepared on every connection that ran it) and
 * whose generic plan was measured to be at least as good as a fresh one: with a join planned
 * around the values, a generic plan can be much worse.
 */
export async function queryPreparedRows<Row extends object>(db: Db, statement: Prisma.Sql): Promise<Row[]> {
  // Named after the text, so two statements never share a name (pg refuses that on a connection).
  const name = `q_${createHash('sha1').update(statement.text).digest('hex')}`;
  return (await queryPool<Row>(sqlPoolOf(db), { name, text: statement.text, values: statement.values })).rows;
}
