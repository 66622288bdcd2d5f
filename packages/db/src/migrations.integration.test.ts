// Migrations 0008-0010 applied on top of realistic v1 data (testing/legacy-fixture.sql): each
// backfill rule of 0009 is checked row by row.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
// Relative on purpose: the runtime alias table lives in the domain package, and this test is what
// keeps migration 0009's copy identical to it (db has no runtime dependency on domain).
import { LEGACY_STYLE_ALIASES, classifyStyleName } from '@staging/domain/styles';
import { DEFAULT_MIGRATIONS_DIR, migrate } from './migrate';
import { createTestDatabase } from './testing';
import type { TestDatabase } from './testing';

async function openLegacyDatabase(): Promise<{ database: TestDatabase; client: pg.Client }> {
  const database = await createTestDatabase({ upTo: '0007' });
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  return { database, client };
}

async function snapshot(client: pg.Client, table: string): Promise<unknown[]> {
  return (await client.query(`SELECT * FROM "${table}" ORDER BY 1, 2`)).rows;
}

describe('0008-0010 on legacy v1 data', () => {
  let database: TestDatabase;
  let client: pg.Client;
  const untouchedTables = ['users', 'sessions', 'properties', 'property_agents', 'property_units', 'inventory_items'];
  const before = new Map<string, unknown[]>();

  beforeAll(async () => {
    ({ database, client } = await openLegacyDatabase());
    await client.query(await readFile(new URL('./testing/legacy-fixture.sql', import.meta.url), 'utf8'));
    for (const table of untouchedTables) before.set(table, await snapshot(client, table));
    // Up to 0010 only: later migrations may add columns (0013 users.locale), which is not these
    // three migrations touching the data.
    await migrate({ databaseUrl: database.url, upTo: '0010' });
  });

  afterAll(async () => {
    await client.end();
    await database.drop();
  });

  const images = async () =>
    (await client.query<{
      id: string; propertyId: string; isStyled: boolean; isMain: boolean; style: string | null;
      canonicalStyle: string | null; reviewStatus: string | null; reviewedAt: Date | null;
      reviewedByUserId: string | null; aiJobId: string | null;
    }>('SELECT * FROM property_images ORDER BY id')).rows;

  it('keeps exactly the expected staged rows, with canonical styles and the v1 text intact', async () => {
    const staged = (await images()).filter((image) => image.isStyled);
    expect(staged.map(({ id, style, canonicalStyle }) => ({ id, style, canonicalStyle }))).toEqual([
      { id: 'stg-elm-artdeco', style: 'Art Deco', canonicalStyle: null },
      { id: 'stg-elm-bed-b', style: 'Retro', canonicalStyle: 'MID_CENTURY' },
      { id: 'stg-elm-bed-unlabeled-1', style: null, canonicalStyle: null },
      { id: 'stg-elm-bed-unlabeled-2', style: null, canonicalStyle: null },
      { id: 'stg-elm-modern-new', style: ' contemporary ', canonicalStyle: 'MODERN' },
      { id: 'stg-elm-nofurn-new', style: 'No-Furniture', canonicalStyle: null },
      { id: 'stg-elm-scandi', style: 'SCANDI', canonicalStyle: 'SCANDINAVIAN' },
      { id: 'stg-harbor-cover', style: 'Farmhouse', canonicalStyle: 'FARMHOUSE' },
      { id: 'stg-harbor-loft', style: 'LOFT', canonicalStyle: 'INDUSTRIAL' },
      { id: 'stg-oak-hall-coastal', style: 'hamptons', canonicalStyle: 'COASTAL' },
    ]);
  });

  it('schedules each removed row\'s object with its reason, except an object a survivor still uses', async () => {
    const outbox = await client.query('SELECT "objectKey", reason, status, attempts, "processedAt" FROM storage_deletion_outbox ORDER BY "objectKey"');
    const pending = { status: 'PENDING', attempts: 0, processedAt: null };
    expect(outbox.rows).toEqual([
      { objectKey: 'legacy/staged/stg-elm-bed-a.jpg', reason: 'MIGRATED_DUPLICATE_JOB_RESULT', ...pending },
      { objectKey: 'legacy/staged/stg-elm-modern-old.jpg', reason: 'MIGRATED_DUPLICATE', ...pending },
      { objectKey: 'legacy/staged/stg-elm-nofurn-old.jpg', reason: 'MIGRATED_DUPLICATE_LEGACY', ...pending },
      { objectKey: 'legacy/staged/stg-elm-of-staged.jpg', reason: 'MIGRATED_ORPHAN', ...pending },
      { objectKey: 'legacy/staged/stg-elm-orphan-null.jpg', reason: 'MIGRATED_ORPHAN', ...pending },
      { objectKey: 'legacy/staged/stg-harbor-dangling.jpg', reason: 'MIGRATED_ORPHAN', ...pending },
    ]);
    const removed = await client.query(`SELECT id FROM property_images WHERE id = 'stg-harbor-urban-dup'`);
    expect(removed.rows).toEqual([]);
  });

  it('approves every surviving staged row with exactly one APPROVED event and no actor', async () => {
    const all = await images();
    for (const image of all) {
      if (image.isStyled) {
        expect(image).toMatchObject({ reviewStatus: 'APPROVED', reviewedByUserId: null });
        expect(image.reviewedAt).toBeInstanceOf(Date);
      } else {
        expect(image).toMatchObject({ reviewStatus: null, reviewedAt: null, canonicalStyle: null });
      }
    }
    const events = await client.query('SELECT "imageId", "aiJobId", "actorUserId", kind, reason FROM property_image_review_events ORDER BY "imageId"');
    expect(events.rows).toEqual(
      all.filter((image) => image.isStyled).map((image) => ({
        imageId: image.id, aiJobId: image.aiJobId, actorUserId: null, kind: 'APPROVED', reason: null,
      })),
    );
  });

  it('leaves one original cover per property and no staged cover', async () => {
    const covers = (await images()).filter((image) => image.isMain).map(({ propertyId, id }) => ({ propertyId, id }));
    expect(covers).toEqual([
      { propertyId: 'prop-elm', id: 'img-elm-living' },
      // The staged cover's own original replaces it.
      { propertyId: 'prop-harbor', id: 'img-harbor-kitchen' },
      // Two v1 covers: the first in display order stays; the staged cover is simply cleared.
      { propertyId: 'prop-oak', id: 'img-oak-hall' },
    ].sort((a, b) => a.id.localeCompare(b.id)));
  });

  it('keeps v1 jobs readable under the v2 enum names, without dedupe keys', async () => {
    const jobs = await client.query('SELECT id, type, status, "dedupeKey", payload FROM ai_jobs ORDER BY id');
    expect(jobs.rows).toHaveLength(11);
    const byId = new Map(jobs.rows.map((job) => [job.id, job]));
    expect(byId.get('job-elm-modern-1')).toMatchObject({ type: 'ROOM_STAGING', status: 'SUCCESS', payload: { style: 'Modern' } });
    expect(byId.get('job-oak-pending')).toMatchObject({ type: 'ROOM_STAGING', status: 'PENDING' });
    expect(byId.get('job-oak-failed')).toMatchObject({ status: 'FAILED' });
    expect(byId.get('job-elm-desc')).toMatchObject({ type: 'DESCRIPTION', status: 'SUCCESS' });
    expect(jobs.rows.every((job) => job.dedupeKey === null)).toBe(true);
  });

  it('does not touch users, sessions, properties, agents, units or inventory', async () => {
    for (const table of untouchedTables) expect(await snapshot(client, table)).toEqual(before.get(table));
  });
});

describe('0009 legacy style aliases', () => {
  // The v1 free-text -> canonical style table the staging v2 rollout was specified with, written
  // out here so that an edit to either copy (migration 0009 or styles.ts) fails this test.
  const SPECIFIED_TABLE: Record<string, string[]> = {
    MODERN: ['modern', 'contemporary', 'luxury'],
    SCANDINAVIAN: ['scandinavian', 'scandi', 'nordic', 'minimalist'],
    INDUSTRIAL: ['industrial', 'loft', 'urban'],
    MID_CENTURY: ['mid-century', 'midcentury', 'mid_century', 'retro'],
    COASTAL: ['coastal', 'beach', 'hamptons'],
    FARMHOUSE: ['farmhouse', 'rustic', 'country'],
  };

  it('carries the specified alias table, the same as packages/domain/src/styles.ts', async () => {
    const sql = await readFile(new URL('0009_ai_room_staging_v2_backfill/migration.sql', `file://${DEFAULT_MIGRATIONS_DIR}/`), 'utf8');
    const values = /FROM \(VALUES([\s\S]*?)\) AS alias/.exec(sql)?.[1] ?? '';
    const sqlTable = Object.fromEntries([...values.matchAll(/\('([^']+)', '([A-Z_]+)'\)/g)].map(([, name, style]) => [name, style]));
    const specifiedTable = Object.fromEntries(
      Object.entries(SPECIFIED_TABLE).flatMap(([style, names]) => names.map((name) => [name, style])),
    );
    expect(sqlTable).toEqual(specifiedTable);
    expect(sqlTable).toEqual({ ...LEGACY_STYLE_ALIASES });
  });

  it('maps every spelling exactly as the runtime classifier does', async () => {
    const { database, client } = await openLegacyDatabase();
    try {
      const spellings = [
        ...Object.keys(LEGACY_STYLE_ALIASES).flatMap((name) => [
          name, name.toUpperCase(), `  ${name[0]?.toUpperCase()}${name.slice(1)}\t`, `\n${name}\r\n`,
        ]),
        'MODERN', 'MID_CENTURY', 'no-furniture', ' No-Furniture ', 'NO-FURNITURE', 'boho', 'Mid Century', 'modernist', '',
      ];
      await client.query(`
        INSERT INTO users (id, email, name, "passwordHash") VALUES ('u', 'u@example.test', 'U', 'x');
        INSERT INTO properties (id, "ownerAgentId", title, address, city) VALUES ('p', 'u', 'T', 'A', 'C');`);
      for (const [index, style] of spellings.entries()) {
        await client.query(`
          INSERT INTO property_images (id, "propertyId", "objectKey", "contentType", width, height, bytes, "isStyled", "styledFromId", style)
          VALUES ($1, 'p', $1, 'image/jpeg', 1, 1, 1, false, NULL, NULL),
                 ($2, 'p', $2, 'image/jpeg', 1, 1, 1, true, $1, $3)`,
          [`o${index}`, `s${index}`, style]);
      }
      await migrate({ databaseUrl: database.url });

      const { rows } = await client.query<{ id: string; canonicalStyle: string | null }>(
        `SELECT id, "canonicalStyle" FROM property_images WHERE "isStyled"`);
      const actual = new Map(rows.map((row) => [row.id, row.canonicalStyle]));
      expect(actual.size).toBe(spellings.length);
      for (const [index, style] of spellings.entries()) {
        const classified = classifyStyleName(style);
        const expected = classified.kind === 'canonical' || classified.kind === 'alias' ? classified.canonicalStyle : null;
        expect({ style, canonicalStyle: actual.get(`s${index}`) }).toEqual({ style, canonicalStyle: expected });
      }
      expect(actual.get(`s${spellings.indexOf('  Hamptons\t')}`)).toBe('COASTAL');
      expect(actual.get(`s${spellings.indexOf(' No-Furniture ')}`)).toBeNull();
    } finally {
      await client.end();
      await database.drop();
    }
  });
});
