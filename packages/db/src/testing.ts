// Throwaway databases for tests: one per Jest run (see testing/jest-global-setup.ts) or one per
// test file that needs its own schema state (e.g. stopped after 0007 to load legacy data).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from './migrate';

const DEFAULT_ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

/** Prefix of every database this module creates; nothing else uses it. */
export const TEST_DATABASE_PREFIX = 'staging_t_';

export interface TestDatabase {
  name: string;
  /** Connection URL of the new database (same server and credentials as the admin URL). */
  url: string;
  /** Drops the database, ending connections still open to it (e.g. an unclosed pool). */
  drop(): Promise<void>;
}

export interface CreateTestDatabaseOptions {
  /** Apply migrations only up to this one, e.g. `'0007'`; all by default. */
  upTo?: string;
  /** False leaves the database empty (tests of the migration runner itself). */
  applyMigrations?: boolean;
  /** Server to create the database on; defaults to TEST_ADMIN_DATABASE_URL or the local server. */
  adminUrl?: string;
  /**
   * `'C'`: a database in the plain C locale, as some servers are initialized (byte-order
   * comparison, case mapping of ASCII letters only); the server's default otherwise.
   */
  locale?: 'C';
}

async function withAdmin<T>(adminUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Creates a uniquely named, migrated database and returns its URL and a way to drop it. */
export async function createTestDatabase(options: CreateTestDatabaseOptions = {}): Promise<TestDatabase> {
  const adminUrl = options.adminUrl ?? process.env.TEST_ADMIN_DATABASE_URL ?? DEFAULT_ADMIN_URL;
  const name = `${TEST_DATABASE_PREFIX}${randomBytes(6).toString('hex')}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;

  // The name is generated here from hex digits only, so interpolating it is safe.
  const locale = options.locale === undefined ? '' : ` TEMPLATE template0 ENCODING 'UTF8' LOCALE '${options.locale}'`;
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"${locale}`));
  const drop = async (): Promise<void> => {
    await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  };
  try {
    if (options.applyMigrations !== false) await migrate({ databaseUrl: url.toString(), upTo: options.upTo });
  } catch (error) {
    await drop();
    throw error;
  }
  return { name, url: url.toString(), drop };
}
