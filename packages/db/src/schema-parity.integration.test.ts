// After all migrations the database must be exactly what schema.prisma describes (plus the
// partial indexes, checks and triggers Prisma cannot express), or Prisma Client and the
// migrations disagree. Expectations are derived from schema.prisma itself.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { expectedSchemaOf } from './testing/prisma-schema';
import type { ExpectedSchema } from './testing/prisma-schema';

const ACTIONS: Record<string, string> = { a: 'NO ACTION', r: 'RESTRICT', c: 'CASCADE', n: 'SET NULL', d: 'SET DEFAULT' };

// Outside Prisma's language, created by 0010 (name -> table and columns).
const PARTIAL_UNIQUE_INDEXES = [
  { name: 'ai_jobs_active_staging_dedupe_uidx', table: 'ai_jobs', columns: ['dedupeKey'] },
  { name: 'property_images_live_staged_variant_uidx', table: 'property_images', columns: ['styledFromId', 'canonicalStyle'] },
  { name: 'property_images_live_legacy_staged_variant_uidx', table: 'property_images', columns: ['styledFromId', 'style'] },
  { name: 'property_images_one_main_per_property_uidx', table: 'property_images', columns: ['propertyId'] },
  { name: 'property_image_review_events_one_approved_uidx', table: 'property_image_review_events', columns: ['imageId'] },
];

// Partial and not unique: the jobs waiting for a start slot (0029).
const PARTIAL_INDEXES = [{ name: 'ai_jobs_waiting_for_start_idx', table: 'ai_jobs', columns: ['requestedByUserId'] }];

// Outside Prisma's language too: unique on an expression (0021, rebuilt in 0027). Only its plain columns show here.
const EXPRESSION_UNIQUE_INDEXES = [{ name: 'property_units_name_uidx', table: 'property_units', columns: ['propertyId'] }];

let client: pg.Client;
let expected: ExpectedSchema;

beforeAll(async () => {
  expected = expectedSchemaOf(await readFile(new URL('../prisma/schema.prisma', import.meta.url), 'utf8'));
  client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
});

afterAll(async () => {
  await client.end();
});

async function rows<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  return (await client.query<T>(sql)).rows;
}

const byKey = <T>(items: T[], key: (item: T) => string): T[] => [...items].sort((a, b) => key(a).localeCompare(key(b)));

describe('database after 0010 matches schema.prisma', () => {
  it('has exactly the schema tables besides _prisma_migrations', async () => {
    const tables = await rows<{ tablename: string }>(
      `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`,
    );
    expect(tables.map((t) => t.tablename).sort()).toEqual([...expected.tables].sort());
    expect(expected.tables).toEqual(expect.arrayContaining([
      'ai_room_staging_jobs', 'ai_provider_attempts', 'ai_provider_webhook_receipts',
      'property_image_review_events', 'storage_deletion_outbox',
    ]));
  });

  it('has every column with its type, nullability and default', async () => {
    const actual = await rows<{ table: string; column: string; type: string; nullable: boolean; default: string | null }>(`
      SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
             NOT a.attnotnull AS nullable, pg_get_expr(d.adbin, d.adrelid) AS default
      FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
        AND c.relname <> '_prisma_migrations'`);
    const key = (c: { table: string; column: string }) => `${c.table}.${c.column}`;
    expect(byKey(actual, key)).toEqual(byKey(expected.columns, key));
  });

  it('has every enum with its values in schema order', async () => {
    const actual = await rows<{ name: string; values: string[] }>(`
      SELECT t.typname AS name, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS values
      FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname`);
    expect(new Map(actual.map((e) => [e.name, e.values]))).toEqual(expected.enums);
  });

  it('has the schema indexes plus the partial unique indexes, and nothing else', async () => {
    const actual = await rows<{ name: string; table: string; columns: string[]; unique: boolean; primary: boolean; predicate: string | null }>(`
      SELECT i.relname AS name, t.relname AS table, ix.indisunique AS unique, ix.indisprimary AS primary,
             array(SELECT a.attname::text FROM unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
                   JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.ord) AS columns,
             pg_get_expr(ix.indpred, ix.indrelid) AS predicate
      FROM pg_index ix
      JOIN pg_class i ON i.oid = ix.indexrelid
      JOIN pg_class t ON t.oid = ix.indrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = 'public' AND t.relname <> '_prisma_migrations'`);
    const wanted = [
      ...expected.indexes.map((index) => ({ ...index, predicate: null })),
      ...PARTIAL_UNIQUE_INDEXES.map((index) => ({ ...index, unique: true, primary: false, predicate: expect.any(String) })),
      ...PARTIAL_INDEXES.map((index) => ({ ...index, unique: false, primary: false, predicate: expect.any(String) })),
      ...EXPRESSION_UNIQUE_INDEXES.map((index) => ({ ...index, unique: true, primary: false, predicate: null })),
    ];
    expect(byKey(actual, (i) => i.name)).toEqual(byKey(wanted, (i) => i.name));
    expect(actual.map((i) => i.name)).toEqual(expect.arrayContaining([
      'ai_jobs_active_staging_dedupe_uidx', 'property_images_live_staged_variant_uidx',
      'property_images_live_legacy_staged_variant_uidx', 'property_images_aiJobId_uidx',
    ]));
  });

  it('has every foreign key with its ON DELETE and ON UPDATE rules', async () => {
    const actual = await rows<{ name: string; table: string; columns: string[]; referencedTable: string; referencedColumns: string[]; deleteCode: string; updateCode: string }>(`
      SELECT con.conname AS name, t.relname AS table, rt.relname AS "referencedTable",
             array(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
                   JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum ORDER BY k.ord) AS columns,
             array(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY AS k(attnum, ord)
                   JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum ORDER BY k.ord) AS "referencedColumns",
             con.confdeltype AS "deleteCode", con.confupdtype AS "updateCode"
      FROM pg_constraint con
      JOIN pg_class t ON t.oid = con.conrelid
      JOIN pg_class rt ON rt.oid = con.confrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = 'public' AND con.contype = 'f'`);
    const normalized = actual.map(({ deleteCode, updateCode, ...fk }) => ({
      ...fk,
      onDelete: ACTIONS[deleteCode],
      onUpdate: ACTIONS[updateCode],
    }));
    expect(byKey(normalized, (fk) => fk.name)).toEqual(byKey(expected.foreignKeys, (fk) => fk.name));
  });

  it('has the named check constraints, the deletion triggers of 0010 and the notification triggers of 0016', async () => {
    const checks = await rows<{ conname: string }>(`
      SELECT con.conname FROM pg_constraint con JOIN pg_namespace n ON n.oid = con.connamespace
      WHERE n.nspname = 'public' AND con.contype = 'c' ORDER BY 1`);
    expect(checks.map((c) => c.conname)).toEqual([
      'ai_provider_attempts_attemptNumber_check',
      'property_images_review_status_check',
      'property_images_staged_cannot_be_main_check',
    ]);
    const triggers = await rows<{ tgname: string; timing: string }>(`
      SELECT tgname, CASE WHEN tgtype & 2 = 2 THEN 'BEFORE' ELSE 'AFTER' END AS timing
      FROM pg_trigger WHERE tgrelid = 'property_images'::regclass AND NOT tgisinternal ORDER BY 1`);
    expect(triggers).toEqual([
      { tgname: 'property_images_cancel_staging_jobs_trg', timing: 'BEFORE' },
      { tgname: 'property_images_notify_staging_event_review_trg', timing: 'AFTER' },
      { tgname: 'property_images_notify_staging_event_trg', timing: 'AFTER' },
      { tgname: 'property_images_storage_deletion_trg', timing: 'AFTER' },
    ]);
  });
});
