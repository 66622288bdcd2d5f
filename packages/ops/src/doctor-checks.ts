/**
 * The individual checks of `pnpm doctor`. Each returns findings instead of throwing, so one
 * broken dependency never hides the diagnosis of the others.
 */
import { HeadBucketCommand } from '@aws-sdk/client-s3';
import type { Redis } from 'ioredis';
import pg from 'pg';
import type { StorageConfig } from '@staging/config/common';
import type { ProducerValues } from '@staging/config/producer-values';
import type { DashboardConfig } from '@staging/config/worker';
import { readMigrations } from '@staging/db/migrate';
import { queueNames, waitForRedis } from '@staging/platform/queues';
import { createS3Client } from '@staging/platform/storage';
import { findUnsupportedInputs } from '@staging/provider/model-schema';
import type { ModelInfo } from '@staging/provider/model-schema';
import { createProviderClient } from '@staging/provider/provider-client';
import type { ResponseDateObservation } from '@staging/provider/provider-client';
import { STAGING_WEBHOOK_PATH_PREFIX } from '@staging/provider/webhook-url';
import { Queue } from 'bullmq';

export type CheckStatus = 'pass' | 'warn' | 'fail' | 'info';

export interface Finding {
  /** The role the finding is about, or 'shared' for a dependency several roles use. */
  scope: string;
  check: string;
  status: CheckStatus;
  detail: string;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Applied migrations (finished, not rolled back) against the migrations directory. */
export async function checkMigrations(databaseUrl: string, migrationsDir?: string): Promise<Finding[]> {
  const scope = 'shared';
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    return [{ scope, check: 'database', status: 'fail', detail: `database unreachable: ${message(error)}` }];
  }
  try {
    const local = await readMigrations(migrationsDir);
    const table = await client.query<{ exists: boolean }>(
      `SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS "exists"`,
    );
    if (table.rows[0]?.exists !== true) {
      return [
        {
          scope,
          check: 'migrations',
          status: 'fail',
          detail: `no migrations applied; ${local.length} pending (run pnpm db:migrate)`,
        },
      ];
    }
    const rows = await client.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      rolled_back_at: Date | null;
    }>('SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"');
    const applied = new Map(
      rows.rows
        .filter((r) => r.rolled_back_at === null && r.finished_at !== null)
        .map((r) => [r.migration_name, r.checksum]),
    );
    const failed = rows.rows
      .filter((r) => r.rolled_back_at === null && r.finished_at === null)
      .map((r) => r.migration_name);
    const pending = local.filter((m) => !applied.has(m.name)).map((m) => m.name);
    const modified = local
      .filter((m) => applied.has(m.name) && applied.get(m.name) !== m.checksum)
      .map((m) => m.name);
    const problems: string[] = [];
    if (failed.length > 0) problems.push(`recorded as failed: ${failed.join(', ')}`);
    if (pending.length > 0) problems.push(`pending: ${pending.join(', ')} (run pnpm db:migrate)`);
    if (modified.length > 0) problems.push(`changed after being applied: ${modified.join(', ')}`);
    if (problems.length > 0)
      return [{ scope, check: 'migrations', status: 'fail', detail: problems.join('; ') }];
    return [
      {
        scope,
        check: 'migrations',
        status: 'pass',
        detail: `up to date (${local.length} applied, last ${local.at(-1)?.name ?? 'none'})`,
      },
    ];
  } catch (error) {
    return [{ scope, check: 'migrations', status: 'fail', detail: message(error) }];
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** PING plus maxmemory-policy from INFO (CONFIG is often disabled on managed Valkey/Redis). */
export async function checkRedis(redis: Redis): Promise<Finding[]> {
  const scope = 'shared';
  try {
    await waitForRedis(redis, 5_000);
    await redis.ping();
  } catch (error) {
    return [{ scope, check: 'queue store', status: 'fail', detail: `unreachable: ${message(error)}` }];
  }
  const info = await redis.info('memory');
  const policy = /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
  if (policy === 'noeviction')
    return [
      { scope, check: 'queue store', status: 'pass', detail: 'reachable, maxmemory-policy noeviction' },
    ];
  return [
    {
      scope,
      check: 'queue store',
      status: 'fail',
      detail: `maxmemory-policy is ${policy ?? 'unknown'}; BullMQ needs noeviction (evicted queue keys lose jobs silently)`,
    },
  ];
}

/**
 * Whether the worker mounts the queue dashboard and whether it may change queues through it
 * (docs/operations.md "Queue dashboard"). Writes on is a warning: it is meant for one
 * intervention, not to stay.
 */
export function describeQueueDashboard(dashboard: DashboardConfig | undefined): Finding {
  const scope = 'worker';
  const check = 'queue dashboard';
  if (dashboard === undefined)
    return { scope, check, status: 'info', detail: 'not mounted (QUEUE_DASHBOARD_USER and QUEUE_DASHBOARD_PASSWORD are not both set)' };
  if (!dashboard.writesEnabled)
    return { scope, check, status: 'info', detail: 'mounted, read-only (QUEUE_DASHBOARD_WRITES=disabled)' };
  return {
    scope,
    check,
    status: 'warn',
    detail: 'mounted with QUEUE_DASHBOARD_WRITES=enabled: retry, promote, clean, pause and remove are allowed; set it back to disabled after the intervention',
  };
}

/** The HTTP status an S3 API error carries in its `$metadata`, when it has one. */
function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('$metadata' in error)) return undefined;
  const metadata = error.$metadata;
  if (typeof metadata !== 'object' || metadata === null || !('httpStatusCode' in metadata)) return undefined;
  return typeof metadata.httpStatusCode === 'number' ? metadata.httpStatusCode : undefined;
}

/** HeadBucket with the role's own credentials: reachable and allowed, nothing is written. */
export async function checkBucket(scope: string, storage: StorageConfig): Promise<Finding> {
  const client = createS3Client(storage, { maxAttempts: 1 });
  try {
    await client.send(new HeadBucketCommand({ Bucket: storage.bucket }));
    return { scope, check: 'bucket', status: 'pass', detail: `bucket ${storage.bucket} reachable` };
  } catch (error) {
    const status = httpStatusOf(error);
    const why =
      status === 404
        ? 'does not exist'
        : status === 403
          ? 'access denied for these credentials'
          : message(error);
    return { scope, check: 'bucket', status: 'fail', detail: `bucket ${storage.bucket}: ${why}` };
  } finally {
    client.destroy();
  }
}

/**
 * An unsigned POST to the callback route must be answered 401 directly (docs/system.md 4.1, 5.1, 7).
 * Any other answer is diagnosed as docs/system.md 7 describes.
 */
export async function checkWebhookRoute(
  webhookBaseUrl: string,
  fetchImpl: typeof fetch = fetch,
): Promise<Finding> {
  // Not stagingWebhookUrl: it throws on a base with a path or trailing slash, and the doctor must
  // report such a configuration, not stop at it.
  const url = `${webhookBaseUrl.replace(/\/+$/, '')}${STAGING_WEBHOOK_PATH_PREFIX}doctor-ping`;
  const scope = 'worker';
  const check = 'webhook route';
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'staging-doctor' },
      body: '{"id":"doctor-ping","status":"succeeded"}',
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    return {
      scope,
      check,
      status: 'fail',
      detail: `${url} unreachable (${message(error)}): the api is down or PROVIDER_WEBHOOK_BASE_URL is wrong`,
    };
  }
  const status = response.status;
  await response.body?.cancel().catch(() => undefined);
  return { scope, check, ...diagnoseWebhookAnswer(url, status, response.headers.get('location')) };
}

/** What the callback route's answer to an unsigned ping says about the route (docs/system.md 7). */
function diagnoseWebhookAnswer(url: string, status: number, location: string | null): Pick<Finding, 'status' | 'detail'> {
  if (status === 401)
    return { status: 'pass', detail: `unsigned ping to ${url} answered 401 (route present, signature enforced)` };
  if (status >= 300 && status < 400) {
    return {
      status: 'fail',
      detail: `redirect defect: ${url} answered ${status} to ${location ?? '(no Location)'}; the route must answer directly (no scheme, host or trailing-slash redirects)`,
    };
  }
  if (status >= 200 && status < 300)
    return { status: 'fail', detail: `DEFECT: an unsigned callback was accepted with ${status}; the receiver must answer 401` };
  if (status === 404) {
    return {
      status: 'fail',
      detail: `route missing or misrouted: ${url} answered 404 (wrong base URL, path not routed to the api, or an api without the route)`,
    };
  }
  if (status === 500)
    return { status: 'fail', detail: `api answered 500: the signing secret is probably missing on the api (PROVIDER_WEBHOOK_SIGNING_SECRET)` };
  if (status === 502 || status === 503 || status === 504)
    return { status: 'fail', detail: `api unreachable behind the proxy (${status}): the api is down, not ready or not routed` };
  return { status: 'fail', detail: `unexpected answer ${status} from ${url}; an unsigned callback must get 401` };
}

/** Reads the live model schema with the worker's credentials. */
export async function fetchModel(options: {
  baseUrl: string;
  token: string;
  model: string;
  /** Told the answer's Date header (the provider clock check). */
  onResponseDate?: (observation: ResponseDateObservation) => void;
}): Promise<ModelInfo> {
  const [owner, name] = options.model.split('/');
  // PROVIDER_MODEL's rule already demands owner/name; this only tells the type checker so.
  if (owner === undefined || name === undefined) throw new Error(`PROVIDER_MODEL must be owner/name, got ${options.model}`);
  const client = createProviderClient({
    baseUrl: options.baseUrl,
    token: options.token,
    ...(options.onResponseDate === undefined ? {} : { onResponseDate: options.onResponseDate }),
  });
  return client.getModel(owner, name);
}

/** docs/system.md 9.6: the configured producer values must be offered by the live model. */
export function checkModelValues(scope: string, model: ModelInfo, values: ProducerValues): Finding {
  const problems = findUnsupportedInputs(model, values);
  const summary = `${values.aspectRatio}, ${values.outputFormat}, quality ${values.quality}, compression ${values.outputCompression}`;
  if (problems.length === 0)
    return {
      scope,
      check: 'model schema',
      status: 'pass',
      detail: `${summary} allowed by ${model.owner}/${model.name}`,
    };
  return {
    scope,
    check: 'model schema',
    status: 'fail',
    detail: `${model.owner}/${model.name} rejects: ${problems.join('; ')}`,
  };
}

/** Depth of the three queues and age of the oldest waiting job in each. */
export async function checkQueues(
  redis: Redis,
  queueSuffix: string,
  now: Date,
  warnAfterMs = 5 * 60_000,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const names = queueNames(queueSuffix);
  for (const name of [names.staging, names.ai, names.search]) {
    const queue = new Queue(name, { connection: redis });
    try {
      const counts = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
      const [oldest] = await queue.getJobs(['waiting', 'prioritized'], 0, 0, true);
      const ageMs = oldest === undefined ? 0 : now.getTime() - oldest.timestamp;
      const depth = Object.entries(counts)
        .map(([state, n]) => `${state} ${n}`)
        .join(', ');
      const age = oldest === undefined ? 'nothing waiting' : `oldest waiting ${Math.round(ageMs / 1000)} s`;
      findings.push({
        scope: 'shared',
        check: `queue ${name}`,
        status: ageMs > warnAfterMs ? 'warn' : 'info',
        detail: `${depth}; ${age}`,
      });
    } catch (error) {
      findings.push({ scope: 'shared', check: `queue ${name}`, status: 'fail', detail: message(error) });
    } finally {
      await queue.close().catch(() => undefined);
    }
  }
  return findings;
}
