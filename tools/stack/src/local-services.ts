// Makes sure PostgreSQL and Redis answer before the stack or the tests use them: uses the URLs
// it is given, otherwise the local servers, starting them when they are installed but stopped.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import pg from 'pg';

export const DEFAULT_ADMIN_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
export const DEFAULT_VALKEY_URL = 'redis://127.0.0.1:6379';

const DOCKER_HINT =
  'Start them with `docker compose -f docker/compose.yml up -d postgres valkey`, or set DATABASE_URL and VALKEY_URL.';

async function canConnectPostgres(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function canConnectRedis(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

function tryRun(file: string, args: string[]): boolean {
  try {
    execFileSync(file, args, { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

function startLocalPostgres(): boolean {
  let versions: string[];
  try {
    versions = readdirSync('/etc/postgresql');
  } catch {
    return false;
  }
  return versions.some((version) =>
    tryRun('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start']),
  );
}

function startLocalRedis(): boolean {
  return tryRun('redis-server', [
    '--daemonize', 'yes', '--bind', '127.0.0.1', '-::1', '--port', '6379', '--save', '', '--appendonly', 'no',
  ]);
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(300);
  }
  return false;
}

/** Returns the admin database URL and the queue-store URL once both servers answer. */
export async function ensureLocalServices(env: NodeJS.ProcessEnv): Promise<{ adminDatabaseUrl: string; valkeyUrl: string }> {
  const adminDatabaseUrl = env.TEST_ADMIN_DATABASE_URL ?? DEFAULT_ADMIN_DATABASE_URL;
  const valkeyUrl = env.VALKEY_URL ?? DEFAULT_VALKEY_URL;
  const problems: string[] = [];

  if (!(await canConnectPostgres(adminDatabaseUrl))) {
    const started = !env.TEST_ADMIN_DATABASE_URL && startLocalPostgres();
    if (!started || !(await waitFor(() => canConnectPostgres(adminDatabaseUrl), 20_000))) {
      problems.push(`PostgreSQL is not reachable at ${redactCredentials(adminDatabaseUrl)}.`);
    }
  }
  if (!(await canConnectRedis(valkeyUrl))) {
    const started = !env.VALKEY_URL && startLocalRedis();
    if (!started || !(await waitFor(() => canConnectRedis(valkeyUrl), 20_000))) {
      problems.push(`Redis/Valkey is not reachable at ${redactCredentials(valkeyUrl)}.`);
    }
  }
  if (problems.length > 0) throw new Error(`${problems.join('\n')}\n${DOCKER_HINT}`);
  return { adminDatabaseUrl, valkeyUrl };
}

export function redactCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<invalid url>';
  }
}

/** Creates `name` on the admin server when it does not exist yet; returns its URL. */
export async function ensureDatabase(adminDatabaseUrl: string, name: string): Promise<string> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`Unsafe database name: ${name}`);
  const client = new pg.Client({ connectionString: adminDatabaseUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(adminDatabaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
