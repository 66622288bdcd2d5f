import type { Db, Prisma } from '@staging/db/client';

/** Namespace of the advisory locks taken here, so they cannot collide with other lock users. */
const JOB_LOCK_NAMESPACE = 72_517;

export interface JobLock {
  /**
   * Throws when the lock is no longer held (the holding transaction timed out). Called right
   * before a purchase so a run that outlived its lock never buys.
   */
  assertHeld(): Promise<void>;
  /**
   * Runs a read on the lock's own connection. Its transaction is open for the whole delivery
   * anyway, so the step loop's reads cost no transaction of their own; under READ COMMITTED each
   * statement still sees everything committed before it, the run's own step writes included.
   */
  read<Row>(statement: Prisma.Sql): Promise<Row[]>;
}

export type JobLockResult<T> = { acquired: true; value: T } | { acquired: false };

/**
 * Runs `fn` while holding a Postgres advisory lock for the job, or reports that another run holds
 * it. BullMQ delivers a job to one processor at a time only while locks are renewed: a blocked
 * event loop or a network partition lets the stalled checker hand the same job to a second run
 * while the first is still going. The lock lives on a database connection, so it survives a
 * blocked event loop (Postgres keeps it) and dies with the process (the connection closes) —
 * exactly the fencing the attempt ledger needs. It is a transaction-scoped lock held by an
 * otherwise read-only interactive transaction; all real writes go through `db` and commit on
 * their own, step by step (a write here would hold its row locks until the delivery ends).
 */
export async function withJobLock<T>(
  db: Db,
  jobId: string,
  options: { timeoutMs: number },
  fn: (lock: JobLock) => Promise<T>,
): Promise<JobLockResult<T>> {
  return db.$transaction(
    async (tx) => {
      const rows = await tx.$queryRaw<{ locked: boolean }[]>`
        SELECT pg_try_advisory_xact_lock(${JOB_LOCK_NAMESPACE}::int4, hashtext(${jobId})) AS locked`;
      if (rows[0]?.locked !== true) return { acquired: false } as const;
      const lock: JobLock = {
        async assertHeld() {
          await tx.$queryRaw`SELECT 1`;
        },
        read: (statement) => tx.$queryRaw(statement),
      };
      return { acquired: true, value: await fn(lock) } as const;
    },
    { maxWait: 10_000, timeout: options.timeoutMs },
  );
}
