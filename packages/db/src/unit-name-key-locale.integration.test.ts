// Migration 0027 on a database in the plain C locale, where 0021's key lowered ASCII letters only:
// names that differ in the case of other letters are told apart, and from then on the index
// refuses them, as it does on a server of any other locale.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import pg from 'pg';
import { migrate } from './migrate';
import { createTestDatabase } from './testing';
import type { TestDatabase } from './testing';

let database: TestDatabase;
let client: pg.Client;

const insertUnit = (name: string, propertyId = 'p1') =>
  client.query(`INSERT INTO "property_units" ("propertyId", "name") VALUES ($1, $2)`, [propertyId, name]);

beforeAll(async () => {
  database = await createTestDatabase({ upTo: '0026', locale: 'C' });
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  // 0021's index, lowering ASCII letters only here, took these as six different names.
  await client.query(`
    INSERT INTO "users" ("id", "email", "name", "passwordHash") VALUES ('agent', 'agent@example.test', 'Agent', 'x');
    INSERT INTO "properties" ("id", "ownerAgentId", "title", "address", "city") VALUES
      ('p1', 'agent', 'One', 'Street 1', 'Town'), ('p2', 'agent', 'Two', 'Street 2', 'Town');
    INSERT INTO "property_units" ("id", "propertyId", "name", "createdAt") VALUES
      ('u1', 'p1', 'Bloque Ñ', '2026-01-01T00:00:00Z'),
      ('u2', 'p1', 'bloque ñ', '2026-01-02T00:00:00Z'),
      ('u3', 'p1', 'ÉTAGE 2', '2026-01-03T00:00:00Z'),
      ('u4', 'p1', 'étage 2', '2026-01-04T00:00:00Z'),
      ('u5', 'p1', 'Ático', '2026-01-05T00:00:00Z'),
      ('u6', 'p2', 'BLOQUE Ñ', '2026-01-06T00:00:00Z');`);
});

afterAll(async () => {
  await client.end();
  await database.drop();
});

it('keeps the oldest name of each group 0021 kept apart by the case of a letter outside ASCII, and appends the id to the others', async () => {
  await migrate({ databaseUrl: database.url, upTo: '0027' });
  const { rows } = await client.query<{ id: string; name: string }>('SELECT "id", "name" FROM "property_units" ORDER BY "id"');
  expect(rows).toEqual([
    { id: 'u1', name: 'Bloque Ñ' },
    { id: 'u2', name: 'bloque ñ (u2)' },
    { id: 'u3', name: 'ÉTAGE 2' },
    { id: 'u4', name: 'étage 2 (u4)' },
    { id: 'u5', name: 'Ático' },
    // Another property may use the name.
    { id: 'u6', name: 'BLOQUE Ñ' },
  ]);
});

it('refuses, after 0027, a name that differs from another of the property only in the case of a letter outside ASCII', async () => {
  for (const name of ['BLOQUE Ñ', 'Étage 2', 'ÁTICO', 'ｂｌｏｑｕｅ ñ']) {
    await expect(insertUnit(name)).rejects.toMatchObject({ code: '23505', constraint: 'property_units_name_uidx' });
  }
  await insertUnit('Bloque O');
  await insertUnit('ático', 'p2');
});
