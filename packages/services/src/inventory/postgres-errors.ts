import { DatabaseError, driverAdapterCauseOf, Prisma } from '@staging/db/client';

/**
 * The SQLSTATE behind a failed statement: a `pg` error from the raw pool carries it as `code`;
 * through Prisma's pg driver adapter, raw queries surface as P2010 and ORM calls as
 * P2002/P2003/…, all with the server's code in `meta.driverAdapterError`.
 */
export function postgresErrorCode(error: unknown): string | undefined {
  if (error instanceof DatabaseError) return error.code;
  return driverAdapterCauseOf(error)?.originalCode;
}

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';
export const NUMERIC_VALUE_OUT_OF_RANGE = '22003';
const DEADLOCK_DETECTED = '40P01';
/** Raised by the `bulk_statement_incomplete` function (migration 0014). */
export const BULK_STATEMENT_INCOMPLETE = 'SB001';

/** Prisma's "record to update/delete does not exist" (P2025). */
export function isRecordNotFound(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2025';
}

/** Two overlapping bulk calls rarely meet head on twice in a row; a third deadlock is an error. */
const DEADLOCK_ATTEMPTS = 3;

/**
 * Runs `statement` again (up to {@link DEADLOCK_ATTEMPTS} times in all) while Postgres picks it
 * as a deadlock victim, which it rolls back whole. For single statements whose row locks are taken
 * in an order the planner chooses, such as bulkDelete's and bulkUpdate's, which two overlapping
 * calls can meet head on.
 */
export async function retryDeadlockVictim<T>(statement: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await statement();
    } catch (error) {
      if (postgresErrorCode(error) !== DEADLOCK_DETECTED || attempt >= DEADLOCK_ATTEMPTS) throw error;
    }
  }
}
