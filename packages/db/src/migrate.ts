/**
 * Migration runner for `prisma/migrations/NNNN_name/migration.sql`.
 *
 * Prisma's CLI cannot apply migrations on machines without its native schema engine, so this runner
 * applies them itself while keeping Prisma's bookkeeping: the same `_prisma_migrations` table and
 * columns, `checksum` = sha256 hex of migration.sql, `applied_steps_count` = 1, and the same
 * advisory lock key, so `prisma migrate status` / `deploy` agree with it wherever the engine exists.
 *
 * Usage:
 * - CLI: `pnpm db:migrate` (root) or `pnpm --filter @staging/db migrate`, with DATABASE_URL set;
 *   `-- --up-to 0007` stops after the named migration.
 * - Code and tests: `await migrate({ databaseUrl, log: console.log, upTo: '0007' })`.
 *
 * Guarantees:
 * - Migrations are applied in directory-name order, each in its own transaction together with its
 *   `_prisma_migrations` row, so a failure leaves no half-applied migration and no row behind; the
 *   next run retries it. Migration files therefore must not contain BEGIN/COMMIT or statements
 *   that cannot run in a transaction (CREATE INDEX CONCURRENTLY).
 * - A session advisory lock serialises concurrent runs: the second waits, then finds nothing to do.
 * - An applied migration whose file no longer matches its recorded checksum stops the run before
 *   anything is applied: history must not be edited, add a new migration instead.
 * - A row Prisma left as failed (finished_at and rolled_back_at both NULL) stops the run, as
 *   `prisma migrate deploy` does; resolve it with `prisma migrate resolve` or by hand.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** Prisma's own advisory lock key, so this runner and `prisma migrate` exclude each other. */
const PRISMA_MIGRATE_LOCK_KEY = 72707369;

/** The directory this package ships its migrations in. */
export const DEFAULT_MIGRATIONS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../prisma/migrations',
);

const MIGRATION_DIR_PATTERN = /^\d{4}_[a-z0-9_]+$/;

export interface MigrateOptions {
  databaseUrl: string;
  /** Receives one human-readable line per event; defaults to silence. */
  log?: (line: string) => void;
  /** Stop after this migration: its full name or its number prefix, e.g. `'0007'`. */
  upTo?: string;
  /** Another migrations directory (tests use a copy to simulate broken files). */
  migrationsDir?: string;
}

export interface MigrateResult {
  /** Names applied by this run, in order. */
  applied: string[];
  /** Migrations recorded as applied after this run. */
  appliedTotal: number;
  /** Local migrations still not applied (those after `upTo`). */
  pending: string[];
}

export interface LocalMigration {
  name: string;
  sql: string;
  checksum: string;
}

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/** sha256 hex of the file text, exactly as Prisma computes `_prisma_migrations.checksum`. */
export function checksumOf(sql: string): string {
  return createHash('sha256').update(sql, 'utf8').digest('hex');
}

/** Reads the migrations directory in the order they must be applied. */
export async function readMigrations(dir: string = DEFAULT_MIGRATIONS_DIR): Promise<LocalMigration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  // Prisma would apply any directory; refusing odd names beats silently never applying one.
  const misnamed = names.find((name) => !MIGRATION_DIR_PATTERN.test(name));
  if (misnamed !== undefined) {
    throw new Error(`Migration directory "${misnamed}" must be named NNNN_snake_case (e.g. 0011_add_x).`);
  }
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: checksumOf(sql) };
    }),
  );
}

function selectUpTo(migrations: LocalMigration[], upTo: string | undefined): LocalMigration[] {
  if (upTo === undefined) return migrations;
  const index = migrations.findIndex((m) => m.name === upTo || m.name.startsWith(`${upTo}_`));
  if (index === -1) throw new Error(`No migration named "${upTo}" in the migrations directory.`);
  return migrations.slice(0, index + 1);
}

// Prisma's DDL for its bookkeeping table (schema engine, PostgreSQL flavour), column for column.
const CREATE_MIGRATIONS_TABLE = `
  CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"            VARCHAR(64) NOT NULL,
    "finished_at"         TIMESTAMPTZ,
    "migration_name"      VARCHAR(255) NOT NULL,
    "logs"                TEXT,
    "rolled_back_at"      TIMESTAMPTZ,
    "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`;

function verifyHistory(rows: MigrationRow[], local: LocalMigration[], log: (line: string) => void): Set<string> {
  const byName = new Map(local.map((m) => [m.name, m]));
  const applied = new Set<string>();
  for (const row of rows) {
    if (row.rolled_back_at !== null) continue;
    if (row.finished_at === null) {
      throw new Error(
        `Migration ${row.migration_name} is recorded as failed in _prisma_migrations; resolve it ` +
          '(prisma migrate resolve, or fix the database and mark it) before migrating again.',
      );
    }
    const file = byName.get(row.migration_name);
    if (file === undefined) {
      // A newer release may have migrated this database; an older runner must not fail on it.
      log(`Warning: migration ${row.migration_name} is applied but missing from the migrations directory.`);
    } else if (file.checksum !== row.checksum) {
      throw new Error(
        `Migration ${row.migration_name} was modified after it was applied (checksum ` +
          `${row.checksum} recorded, ${file.checksum} on disk). Restore the file and add a new ` +
          'migration instead.',
      );
    }
    applied.add(row.migration_name);
  }
  return applied;
}

function describeFailure(migration: LocalMigration, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  const position = Number(typeof error === 'object' && error !== null && 'position' in error ? error.position : undefined);
  const line = Number.isFinite(position) && position > 0
    ? ` (line ${migration.sql.slice(0, position).split('\n').length})`
    : '';
  return new Error(`Migration ${migration.name} failed${line}: ${message}`, { cause: error });
}

async function applyOne(client: pg.Client, migration: LocalMigration): Promise<void> {
  const id = randomUUID();
  await client.query('BEGIN');
  try {
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
       VALUES ($1, $2, $3, clock_timestamp(), 0)`,
      [id, migration.checksum, migration.name],
    );
    // Simple-query protocol: a migration file is many statements in one string.
    await client.query(migration.sql);
    await client.query(
      `UPDATE "_prisma_migrations" SET finished_at = clock_timestamp(), applied_steps_count = 1
       WHERE id = $1`,
      [id],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw describeFailure(migration, error);
  }
}

/** Applies every pending migration (up to `upTo`) under Prisma's advisory lock. */
export async function migrate(options: MigrateOptions): Promise<MigrateResult> {
  const log = options.log ?? (() => undefined);
  const local = await readMigrations(options.migrationsDir);
  const wanted = selectUpTo(local, options.upTo);

  const client = new pg.Client({ connectionString: options.databaseUrl });
  // Notices (e.g. "relation already exists, skipping") are noise for a CLI user.
  client.on('notice', () => undefined);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK_KEY]);
    try {
      await client.query(CREATE_MIGRATIONS_TABLE);
      const { rows } = await client.query<MigrationRow>(
        `SELECT migration_name, checksum, finished_at, rolled_back_at
         FROM "_prisma_migrations" ORDER BY started_at, migration_name`,
      );
      const appliedNames = verifyHistory(rows, local, log);
      const toApply = wanted.filter((m) => !appliedNames.has(m.name));

      for (const migration of toApply) {
        log(`Applying migration ${migration.name}`);
        await applyOne(client, migration);
        appliedNames.add(migration.name);
      }

      const pending = local.filter((m) => !appliedNames.has(m.name)).map((m) => m.name);
      const summary = `${appliedNames.size} migrations applied, ${pending.length === 0 ? 'none' : pending.length} pending.`;
      log(toApply.length === 0 ? `Database is up to date: ${summary}` : `Applied ${toApply.length} migrations: ${summary}`);
      return { applied: toApply.map((m) => m.name), appliedTotal: appliedNames.size, pending };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await client.end();
  }
}
