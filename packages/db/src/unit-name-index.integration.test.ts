// Migration 0021 on units written before it: names that read alike (letter case, character width,
// a no-break space) in one property are told apart, and from then on the index refuses them.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import pg from 'pg';
import { migrate } from './migrate';
import { createTestDatabase } from './testing';
import type { TestDatabase } from './testing';

let database: TestDatabase;
let client: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase({ upTo: '0017' });
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query(`
    INSERT INTO "users" ("id", "email", "name", "passwordHash") VALUES ('agent', 'agent@example.test', 'Agent', 'x');
    INSERT INTO "properties" ("id", "ownerAgentId", "title", "address", "city") VALUES
      ('p1', 'agent', 'One', 'Street 1', 'Town'), ('p2', 'agent', 'Two', 'Street 2', 'Town');
    INSERT INTO "property_units" ("id", "propertyId", "name", "createdAt") VALUES
      ('u1', 'p1', 'Tower B', '2026-01-01T00:00:00Z'),
      ('u2', 'p1', 'tower b', '2026-01-02T00:00:00Z'),
      ('u3', 'p1', E'Tower\\u00a0B', '2026-01-03T00:00:00Z'),
      ('u4', 'p1', 'Ｔｏｗｅｒ Ｂ', '2026-01-04T00:00:00Z'),
      ('u5', 'p1', 'Tower C', '2026-01-05T00:00:00Z'),
      ('u6', 'p2', 'TOWER B', '2026-01-06T00:00:00Z');`);
  await migrate({ databaseUrl: database.url, upTo: '0021' });
});

afterAll(async () => {
  await client.end();
  await database.drop();
});

it('keeps the oldest name of each look-alike group and appends the id to the others', async () => {
  const { rows } = await client.query<{ id: string; name: string }>('SELECT "id", "name" FROM "property_units" ORDER BY "id"');
  expect(rows).toEqual([
    { id: 'u1', name: 'Tower B' },
    { id: 'u2', name: 'tower b (u2)' },
    { id: 'u3', name: 'Tower\u00a0B (u3)' },
    { id: 'u4', name: 'Ｔｏｗｅｒ Ｂ (u4)' },
    { id: 'u5', name: 'Tower C' },
    // Another property may use the name.
    { id: 'u6', name: 'TOWER B' },
  ]);
});

it('refuses a name that reads like another of the same property, whatever its case or width', async () => {
  for (const name of ['TOWER B', 'Ｔｏｗｅｒ Ｂ', 'Tower\u00a0B', 'tower c']) {
    await expect(client.query(`INSERT INTO "property_units" ("propertyId", "name") VALUES ('p1', $1)`, [name])).rejects.toMatchObject({
      code: '23505',
      constraint: 'property_units_name_uidx',
    });
  }
  await client.query(`INSERT INTO "property_units" ("propertyId", "name") VALUES ('p1', 'Tower D'), ('p2', 'Tower C')`);
});
