import type { Db, DbTransaction } from '@staging/db/client';

/** Where a ledger write runs: on its own, or inside a caller's transaction with other writes. */
export type LedgerWriter = Db | DbTransaction;

/** Thrown inside a transaction to roll it back when a conditional update matched nothing. */
class StaleStateError extends Error {
  override readonly name = 'StaleStateError';
}

/**
 * Runs `fn` in a transaction and turns a StaleStateError into `false` (rolled back, nothing
 * changed), so callers can write "apply all of these moves or none".
 */
export async function transactIfCurrent(db: Db, fn: (tx: DbTransaction) => Promise<void>): Promise<boolean> {
  try {
    await db.$transaction(fn);
    return true;
  } catch (error) {
    if (error instanceof StaleStateError) return false;
    throw error;
  }
}

/** Throws StaleStateError when a conditional update in a transaction matched nothing. */
export function requireChanged(changed: boolean, what: string): void {
  if (!changed) throw new StaleStateError(`${what} changed concurrently`);
}
