import { describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { readMigrations } from '../migrate';

// Runs under the shared Jest config, so it checks what every package's tests receive.
describe('Jest global setup', () => {
  it('provides a fully migrated DATABASE_URL', async () => {
    const databaseUrl = process.env.DATABASE_URL;
    expect(databaseUrl).toBeTruthy();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ migration_name: string }>(
        'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL ORDER BY migration_name',
      );
      const local = await readMigrations();
      expect(rows.map((row) => row.migration_name)).toEqual(local.map((m) => m.name));
    } finally {
      await client.end();
    }
  });

  it('provides the queue-store URL and a queue suffix', () => {
    expect(process.env.VALKEY_URL).toMatch(/^rediss?:\/\//);
    expect(process.env.QUEUE_SUFFIX).toBeDefined();
  });
});
