import { afterEach, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFile, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { DEFAULT_MIGRATIONS_DIR, migrate, readMigrations } from './migrate';
import { createTestDatabase } from './testing';
import type { TestDatabase } from './testing';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function emptyDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase({ applyMigrations: false });
  cleanups.push(() => database.drop());
  return database;
}

async function copyOfMigrations(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'staging-migrations-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await cp(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

interface MigrationRow {
  id: string;
  checksum: string;
  migration_name: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  logs: string | null;
  applied_steps_count: number;
}

const recorded = (url: string) =>
  query<MigrationRow>(url, 'SELECT * FROM "_prisma_migrations" ORDER BY migration_name');

describe('migrate', () => {
  it('applies every migration once, in order, and records it as Prisma does', async () => {
    const database = await emptyDatabase();
    const lines: string[] = [];
    const result = await migrate({ databaseUrl: database.url, log: (line) => lines.push(line) });

    const local = await readMigrations();
    const names = local.map((m) => m.name);
    expect(names.length).toBeGreaterThanOrEqual(10);
    expect(names[7]).toBe('0008_ai_room_staging_v2_schema');
    expect(names[8]).toBe('0009_ai_room_staging_v2_backfill');
    expect(names[9]).toBe('0010_ai_room_staging_v2_constraints');
    expect(result).toEqual({ applied: names, appliedTotal: names.length, pending: [] });
    expect(lines.filter((l) => l.startsWith('Applying'))).toEqual(names.map((n) => `Applying migration ${n}`));

    const rows = await recorded(database.url);
    expect(rows.map((r) => r.migration_name)).toEqual(names);
    for (const row of rows) {
      const file = await readFile(path.join(DEFAULT_MIGRATIONS_DIR, row.migration_name, 'migration.sql'));
      expect(row.checksum).toBe(createHash('sha256').update(file).digest('hex'));
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(row).toMatchObject({ applied_steps_count: 1, logs: null, rolled_back_at: null });
      expect(row.finished_at).toBeInstanceOf(Date);
    }
  });

  it('creates _prisma_migrations with exactly Prisma\'s columns', async () => {
    const database = await emptyDatabase();
    await migrate({ databaseUrl: database.url, upTo: '0001' });
    const columns = await query(database.url, `
      SELECT column_name, data_type, character_maximum_length AS length, is_nullable, column_default
      FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`);
    expect(columns).toEqual([
      { column_name: 'id', data_type: 'character varying', length: 36, is_nullable: 'NO', column_default: null },
      { column_name: 'checksum', data_type: 'character varying', length: 64, is_nullable: 'NO', column_default: null },
      { column_name: 'finished_at', data_type: 'timestamp with time zone', length: null, is_nullable: 'YES', column_default: null },
      { column_name: 'migration_name', data_type: 'character varying', length: 255, is_nullable: 'NO', column_default: null },
      { column_name: 'logs', data_type: 'text', length: null, is_nullable: 'YES', column_default: null },
      { column_name: 'rolled_back_at', data_type: 'timestamp with time zone', length: null, is_nullable: 'YES', column_default: null },
      { column_name: 'started_at', data_type: 'timestamp with time zone', length: null, is_nullable: 'NO', column_default: 'now()' },
      { column_name: 'applied_steps_count', data_type: 'integer', length: null, is_nullable: 'NO', column_default: '0' },
    ]);
  });

  it('says the database is up to date on a second run and changes nothing', async () => {
    const database = await emptyDatabase();
    await migrate({ databaseUrl: database.url });
    const before = await recorded(database.url);
    const lines: string[] = [];
    const second = await migrate({ databaseUrl: database.url, log: (line) => lines.push(line) });
    const total = (await readMigrations()).length;
    expect(second).toEqual({ applied: [], appliedTotal: total, pending: [] });
    expect(lines).toEqual([`Database is up to date: ${total} migrations applied, none pending.`]);
    expect(await recorded(database.url)).toEqual(before);
  });

  it('stops after upTo and applies the rest on the next run', async () => {
    const database = await emptyDatabase();
    const first = await migrate({ databaseUrl: database.url, upTo: '0007' });
    expect(first.applied).toHaveLength(7);
    // Every later migration is pending, in order, starting with the v2 ones.
    expect(first.pending).toEqual((await readMigrations()).slice(7).map((m) => m.name));
    expect(first.pending.slice(0, 3)).toEqual([
      '0008_ai_room_staging_v2_schema', '0009_ai_room_staging_v2_backfill', '0010_ai_room_staging_v2_constraints',
    ]);
    const tables = await query<{ n: number }>(database.url,
      `SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'ai_room_staging_jobs'`);
    expect(tables[0]?.n).toBe(0);
    const rest = await migrate({ databaseUrl: database.url });
    expect(rest.applied).toEqual(first.pending);
  });

  it('refuses an unknown upTo name', async () => {
    const database = await emptyDatabase();
    await expect(migrate({ databaseUrl: database.url, upTo: '0999' })).rejects.toThrow('No migration named "0999"');
  });

  it('lets two concurrent runs both succeed with each migration applied once', async () => {
    const database = await emptyDatabase();
    const [a, b] = await Promise.all([
      migrate({ databaseUrl: database.url }),
      migrate({ databaseUrl: database.url }),
    ]);
    const total = (await readMigrations()).length;
    expect([...a.applied, ...b.applied].sort()).toEqual((await readMigrations()).map((m) => m.name));
    expect(a.appliedTotal).toBe(total);
    expect(b.appliedTotal).toBe(total);
    const rows = await recorded(database.url);
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => r.migration_name)).size).toBe(total);
  });

  it('refuses to run when an applied migration file changed, naming it, and applies nothing', async () => {
    const database = await emptyDatabase();
    const dir = await copyOfMigrations();
    await migrate({ databaseUrl: database.url, migrationsDir: dir, upTo: '0008' });
    await appendFile(path.join(dir, '0003_property_agents', 'migration.sql'), '\n-- edited after release\n');

    await expect(migrate({ databaseUrl: database.url, migrationsDir: dir })).rejects.toThrow(
      /Migration 0003_property_agents was modified after it was applied/,
    );
    expect(await recorded(database.url)).toHaveLength(8);
  });

  it('rolls a failing migration back completely, names it, and retries it next time', async () => {
    const database = await emptyDatabase();
    const dir = await copyOfMigrations();
    // Numbered after every real migration, so it is the one that fails and the one retried.
    const broken = path.join(dir, '9999_broken');
    await mkdir(broken);
    await writeFile(path.join(broken, 'migration.sql'), 'CREATE TABLE "half_done" (id int);\nSELECT * FROM "no_such_table";\n');

    await expect(migrate({ databaseUrl: database.url, migrationsDir: dir })).rejects.toThrow(
      'Migration 9999_broken failed (line 2): relation "no_such_table" does not exist',
    );
    expect((await recorded(database.url)).map((r) => r.migration_name)).not.toContain('9999_broken');
    expect(await query(database.url, `SELECT 1 FROM pg_tables WHERE tablename = 'half_done'`)).toEqual([]);

    await writeFile(path.join(broken, 'migration.sql'), 'CREATE TABLE "half_done" (id int);\n');
    expect((await migrate({ databaseUrl: database.url, migrationsDir: dir })).applied).toEqual(['9999_broken']);
  });

  it('refuses a migrations directory it would not apply in a predictable order', async () => {
    const database = await emptyDatabase();
    const dir = await copyOfMigrations();
    await mkdir(path.join(dir, '20240101120000_AddThing'));
    await expect(migrate({ databaseUrl: database.url, migrationsDir: dir })).rejects.toThrow(
      'Migration directory "20240101120000_AddThing" must be named NNNN_snake_case',
    );
    expect(await query(database.url, `SELECT 1 FROM pg_tables WHERE tablename = '_prisma_migrations'`)).toEqual([]);
  });

  it('refuses to run past a migration Prisma recorded as failed', async () => {
    const database = await emptyDatabase();
    await migrate({ databaseUrl: database.url, upTo: '0002' });
    await query(database.url, `
      INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
      VALUES ('00000000-0000-4000-8000-000000000000', repeat('0', 64), '0003_property_agents', now(), 0)`);
    await expect(migrate({ databaseUrl: database.url })).rejects.toThrow(
      /Migration 0003_property_agents is recorded as failed/,
    );
  });

  it('warns about, but tolerates, an applied migration that is missing locally', async () => {
    const database = await emptyDatabase();
    const dir = await copyOfMigrations();
    await mkdir(path.join(dir, '0011_from_a_newer_release'));
    await writeFile(path.join(dir, '0011_from_a_newer_release', 'migration.sql'), 'SELECT 1;\n');
    await migrate({ databaseUrl: database.url, migrationsDir: dir });

    const lines: string[] = [];
    const result = await migrate({ databaseUrl: database.url, log: (line) => lines.push(line) });
    expect(result.applied).toEqual([]);
    expect(lines[0]).toBe('Warning: migration 0011_from_a_newer_release is applied but missing from the migrations directory.');
  });
});

describe('migrate CLI', () => {
  const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');
  const run = (env: NodeJS.ProcessEnv) =>
    spawnSync(process.execPath, [tsxCli, 'src/migrate-cli.ts'], { cwd: packageDir, env, encoding: 'utf8' });

  it('migrates DATABASE_URL and reports up to date on the second run', async () => {
    const database = await emptyDatabase();
    const first = run({ ...process.env, DATABASE_URL: database.url });
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('Applying migration 0010_ai_room_staging_v2_constraints');
    const second = run({ ...process.env, DATABASE_URL: database.url });
    expect(second.status).toBe(0);
    expect(second.stdout.trim()).toBe(`Database is up to date: ${(await readMigrations()).length} migrations applied, none pending.`);
  });

  it('fails clearly without DATABASE_URL', () => {
    const { DATABASE_URL: _ignored, ...env } = process.env;
    const result = run(env);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('DATABASE_URL is not set');
  });
});
