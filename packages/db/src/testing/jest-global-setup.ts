// Jest globalSetup for every package: unless the root test runner already provides DATABASE_URL,
// one migrated database plus a private queue namespace is created for this Jest run, so parallel
// runs (and parallel packages) never share rows or queues. Workers inherit process.env.
import { randomBytes } from 'node:crypto';
import { createTestDatabase } from '../testing';
import type { TestDatabase } from '../testing';

export const JEST_RUN_STATE_KEY = '__stagingJestRunState';

/** What teardown needs: the database to drop and the environment to restore (watch mode reruns). */
export interface JestRunState {
  database: TestDatabase;
  previousEnv: Record<'DATABASE_URL' | 'VALKEY_URL' | 'QUEUE_SUFFIX', string | undefined>;
}

export default async function globalSetup(): Promise<void> {
  if (process.env.DATABASE_URL) return;
  const previousEnv = {
    DATABASE_URL: process.env.DATABASE_URL,
    VALKEY_URL: process.env.VALKEY_URL,
    QUEUE_SUFFIX: process.env.QUEUE_SUFFIX,
  };
  const database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.VALKEY_URL ??= 'redis://127.0.0.1:6379';
  // Always fresh: a suffix inherited from a developer shell would share queues with a dev stack.
  process.env.QUEUE_SUFFIX = `-t${randomBytes(4).toString('hex')}`;
  const state: JestRunState = { database, previousEnv };
  (globalThis as Record<string, unknown>)[JEST_RUN_STATE_KEY] = state;
}
