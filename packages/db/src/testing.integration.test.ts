import { describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createTestDatabase, TEST_DATABASE_PREFIX } from './testing';

const adminUrl = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

async function databaseExists(name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}

describe('createTestDatabase', () => {
  it('creates a uniquely named database migrated up to upTo, and drop() removes it despite open connections', async () => {
    const [first, second] = await Promise.all([createTestDatabase({ upTo: '0007' }), createTestDatabase({ upTo: '0007' })]);
    expect(first.name).toMatch(new RegExp(`^${TEST_DATABASE_PREFIX}[0-9a-f]{12}$`));
    expect(first.name).not.toBe(second.name);
    expect(new URL(first.url).pathname).toBe(`/${first.name}`);

    const client = new pg.Client({ connectionString: first.url });
    await client.connect();
    client.on('error', () => undefined); // the forced drop terminates this connection
    const { rows } = await client.query<{ migration_name: string }>('SELECT migration_name FROM "_prisma_migrations" ORDER BY 1');
    expect(rows.at(-1)?.migration_name).toBe('0007_ai_room_staging_v1');
    expect(rows).toHaveLength(7);

    await Promise.all([first.drop(), second.drop()]);
    expect(await databaseExists(first.name)).toBe(false);
    expect(await databaseExists(second.name)).toBe(false);
  });
});
