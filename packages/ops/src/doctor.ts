/**
 * `pnpm doctor`: checks a deployment from the environments of the roles it is given (web, api,
 * worker): configuration, migrations, queue store, bucket, webhook route, model schema, producer
 * parity, kill switches, the daily purchase cap, queues, stale jobs and the provider's and database's
 * clocks against this machine's. Any failing check makes the result not ok.
 */
import type { ApiConfig } from '@staging/config/api';
import { parseApiEnv } from '@staging/config/api';
import { ConfigError } from '@staging/config/config-error';
import type { ConfigRole } from '@staging/config/config-error';
import type { Env } from '@staging/config/env-reader';
import { producerValuesFingerprint } from '@staging/config/producer-values';
import type { WebConfig } from '@staging/config/web';
import { parseWebEnv } from '@staging/config/web';
import type { WorkerConfig } from '@staging/config/worker';
import { parseWorkerEnv } from '@staging/config/worker';
import { createDb } from '@staging/db/client';
import { NONTERMINAL_JOB_STATUSES } from '@staging/domain/staging-states';
import { createRedis } from '@staging/platform/queues';
import { findStaleJobs } from '@staging/services/alerts/stale-jobs';
import type { ResponseDateObservation } from '@staging/provider/provider-client';
import { checkDailyPurchases } from './daily-cap-check';
import { checkDatabaseClock, providerClockFinding } from './doctor-clock';
import { listLiveProducerFingerprints } from '@staging/services/parity/producer-parity';
import {
  checkBucket,
  checkMigrations,
  checkModelValues,
  checkQueues,
  checkRedis,
  checkWebhookRoute,
  describeQueueDashboard,
  fetchModel,
} from './doctor-checks';
import type { Finding } from './doctor-checks';

export type { CheckStatus, Finding } from './doctor-checks';

type AnyConfig = WebConfig | ApiConfig | WorkerConfig;

export interface RoleEnv {
  role: ConfigRole;
  env: Env;
  /** Where the environment came from, for the report (a file path or "current environment"). */
  source: string;
}

export interface DoctorOptions {
  roles: RoleEnv[];
  now?: Date;
  fetch?: typeof fetch;
  migrationsDir?: string;
}

export interface DoctorReport {
  findings: Finding[];
  ok: boolean;
}

const PARSERS: Record<ConfigRole, (env: Env) => AnyConfig> = {
  web: parseWebEnv,
  api: parseApiEnv,
  worker: parseWorkerEnv,
};

function parseRole(role: RoleEnv): { config: AnyConfig | null; findings: Finding[] } {
  try {
    const config = PARSERS[role.role](role.env);
    const warnings = 'warnings' in config ? config.warnings : [];
    return {
      config,
      findings: [
        { scope: role.role, check: 'configuration', status: 'pass', detail: `valid (${role.source})` },
        ...warnings.map((warning): Finding => ({
          scope: role.role,
          check: 'configuration',
          status: 'warn',
          detail: warning,
        })),
      ],
    };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const problems = error.problems.map((p) => `${p.variable} ${p.rule}`).join('; ');
    return {
      config: null,
      findings: [
        {
          scope: role.role,
          check: 'configuration',
          status: 'fail',
          detail: `invalid (${role.source}): ${problems}`,
        },
      ],
    };
  }
}

function uniqueBy<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const now = options.now ?? new Date();
  const findings: Finding[] = [];
  const configs: AnyConfig[] = [];
  for (const role of options.roles) {
    const parsed = parseRole(role);
    findings.push(...parsed.findings);
    if (parsed.config !== null) configs.push(parsed.config);
  }
  const worker = configs.find((c): c is WorkerConfig => c.role === 'worker');
  findings.push(...killSwitchFindings(configs, worker));
  findings.push(...checkConfigParity(configs));
  findings.push(...(await databaseFindings(configs, worker, now, options.migrationsDir)));
  findings.push(...(await redisFindings(configs, now)));
  for (const config of configs) {
    if (config.storage !== undefined) findings.push(await checkBucket(config.role, config.storage));
  }
  findings.push(...(await providerFindings(configs, worker, options.fetch)));
  return { findings, ok: findings.every((f) => f.status !== 'fail') };
}

/** The kill switch per role, and the deployment order of docs/system.md 9.5 (worker on first). */
function killSwitchFindings(configs: AnyConfig[], worker: WorkerConfig | undefined): Finding[] {
  const findings: Finding[] = [];
  for (const config of configs) {
    findings.push({
      scope: config.role,
      check: 'kill switch',
      status: 'info',
      detail: `AI_ROOM_STAGING_ENABLED is ${config.stagingEnabled ? "'true': new paid predictions allowed" : 'not true: new paid predictions disabled'}`,
    });
  }
  if (worker !== undefined) findings.push(describeQueueDashboard(worker.dashboard));
  if (
    worker !== undefined &&
    !worker.stagingEnabled &&
    configs.some((c) => c.role !== 'worker' && c.stagingEnabled)
  ) {
    findings.push({
      scope: 'shared',
      check: 'kill switch',
      status: 'warn',
      detail:
        'a producer accepts submissions while the worker flag is off: jobs wait as PROVIDER_DISABLED (turn the worker on first)',
    });
  }
  return findings;
}

/** Migrations, clock, stale jobs and today's purchases, once per database. */
async function databaseFindings(configs: AnyConfig[], worker: WorkerConfig | undefined, now: Date, migrationsDir: string | undefined): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const config of uniqueBy(configs, (c) => c.databaseUrl)) {
    findings.push(...(await checkMigrations(config.databaseUrl, migrationsDir)));
    findings.push(await checkDatabaseClock(config.databaseUrl));
    findings.push(...(await checkStaleJobs(config.databaseUrl, now, worker?.stagingEnabled ?? true)));
    // The worker's value is the one enforced; without it, the value the spend page shows.
    findings.push(...(await checkDailyPurchases(config.databaseUrl, now, (worker ?? config).dailyPurchaseCap)));
  }
  return findings;
}

/** Reachability, live producer parity and queue state, once per Redis and queue suffix. */
async function redisFindings(configs: AnyConfig[], now: Date): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const config of uniqueBy(configs, (c) => `${c.valkeyUrl}|${c.queueSuffix}`)) {
    const redis = createRedis(config.valkeyUrl, { role: 'producer', connectionName: 'doctor' });
    redis.on('error', () => undefined);
    try {
      const found = await checkRedis(redis);
      findings.push(...found);
      if (found.every((f) => f.status !== 'fail' || !f.detail.startsWith('unreachable'))) {
        findings.push(...(await checkLiveParity(redis, config.queueSuffix, configs, now)));
        findings.push(...(await checkQueues(redis, config.queueSuffix, now)));
      }
    } finally {
      redis.disconnect();
    }
  }
  return findings;
}

/** The webhook route, the model schema against each role's values, and the provider's clock: the worker's to check. */
async function providerFindings(configs: AnyConfig[], worker: WorkerConfig | undefined, fetchImpl: typeof fetch | undefined): Promise<Finding[]> {
  if (worker === undefined) {
    return [
      {
        scope: 'shared',
        check: 'model schema',
        status: 'info',
        detail:
          'no valid worker environment given: the webhook route and model schema checks need the worker configuration (the provider token lives on the worker only)',
      },
    ];
  }
  const findings: Finding[] = [await checkWebhookRoute(worker.webhookBaseUrl, fetchImpl)];
  let providerDate: ResponseDateObservation | undefined;
  try {
    const model = await fetchModel({
      baseUrl: worker.providerApiBaseUrl,
      token: worker.providerApiToken,
      model: worker.providerModel,
      onResponseDate: (seen) => {
        providerDate = seen;
      },
    });
    for (const config of configs) findings.push(checkModelValues(config.role, model, config.producer));
  } catch (error) {
    findings.push({
      scope: 'worker',
      check: 'model schema',
      status: 'fail',
      detail: `cannot read the model schema: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
  // An error answer (401, 404) carries a Date header too.
  findings.push(providerClockFinding(providerDate));
  return findings;
}

/** Producer values, QUEUE_SUFFIX and PROVIDER_MODEL must agree between the given roles. */
function checkConfigParity(configs: AnyConfig[]): Finding[] {
  const [first] = configs;
  if (first === undefined || configs.length < 2) return [];
  const findings: Finding[] = [];
  const describe = (pick: (c: AnyConfig) => string) => configs.map((c) => `${c.role}=${pick(c)}`).join(', ');
  const agree = (pick: (c: AnyConfig) => string) => new Set(configs.map(pick)).size === 1;
  const fingerprint = (c: AnyConfig) => producerValuesFingerprint(c.producer);
  findings.push(
    agree(fingerprint)
      ? {
          scope: 'shared',
          check: 'producer parity',
          status: 'pass',
          detail: `producer values identical on ${configs.map((c) => c.role).join(', ')} (${fingerprint(first)})`,
        }
      : {
          scope: 'shared',
          check: 'producer parity',
          status: 'fail',
          detail: `producer values differ: ${configs.map((c) => `${c.role}=${c.producer.quality}/${c.producer.aspectRatio}/${c.producer.outputFormat}/${c.producer.outputCompression}`).join(', ')}`,
        },
  );
  if (!agree((c) => c.queueSuffix)) {
    findings.push({
      scope: 'shared',
      check: 'queue suffix',
      status: 'fail',
      detail: `QUEUE_SUFFIX differs: ${describe((c) => JSON.stringify(c.queueSuffix))}`,
    });
  }
  if (!agree((c) => String(c.dailyPurchaseCap))) {
    findings.push({
      scope: 'shared',
      check: 'daily purchase cap',
      status: 'warn',
      detail: `AI_DAILY_PURCHASE_CAP differs: ${describe((c) => String(c.dailyPurchaseCap ?? 'unset'))} (the worker enforces its own value; the spend page shows the web's)`,
    });
  }
  if (!agree((c) => c.providerModel)) {
    findings.push({
      scope: 'shared',
      check: 'provider model',
      status: 'fail',
      detail: `PROVIDER_MODEL differs: ${describe((c) => c.providerModel)}`,
    });
  }
  return findings;
}

/** Fingerprints the running processes published (services/parity) against the given configs. */
async function checkLiveParity(
  redis: ReturnType<typeof createRedis>,
  queueSuffix: string,
  configs: AnyConfig[],
  now: Date,
): Promise<Finding[]> {
  const live = await listLiveProducerFingerprints(redis, queueSuffix, now);
  if (live.length === 0)
    return [
      {
        scope: 'shared',
        check: 'live producer parity',
        status: 'info',
        detail: 'no running process has published its producer fingerprint',
      },
    ];
  const expected = new Set(
    configs.filter((c) => c.queueSuffix === queueSuffix).map((c) => producerValuesFingerprint(c.producer)),
  );
  const all = new Set([...expected, ...live.map((e) => e.fingerprint)]);
  const listing = live.map((e) => `${e.role}@${e.instanceId}=${e.fingerprint}`).join(', ');
  return [
    all.size === 1
      ? {
          scope: 'shared',
          check: 'live producer parity',
          status: 'pass',
          detail: `${live.length} running processes agree (${listing})`,
        }
      : {
          scope: 'shared',
          check: 'live producer parity',
          status: 'fail',
          detail: `running processes disagree: ${listing}${expected.size > 0 ? `; configured ${[...expected].join(', ')}` : ''}`,
        },
  ];
}

async function checkStaleJobs(databaseUrl: string, now: Date, stagingEnabled: boolean): Promise<Finding[]> {
  const db = createDb(databaseUrl, { maxConnections: 1 });
  try {
    const stale = await findStaleJobs(db, { now, stagingEnabled, limit: 1_000 });
    const oldest = await db.aiJob.groupBy({
      by: ['type', 'status'],
      where: { status: { in: [...NONTERMINAL_JOB_STATUSES] } },
      _min: { createdAt: true },
      _count: { _all: true },
    });
    const open = oldest
      .map(
        (g) =>
          `${g.type}/${g.status} ${g._count._all} (oldest ${Math.round((now.getTime() - (g._min.createdAt?.getTime() ?? now.getTime())) / 1000)} s)`,
      )
      .join(', ');
    const byKind = new Map<string, number>();
    for (const finding of stale) byKind.set(finding.kind, (byKind.get(finding.kind) ?? 0) + 1);
    return [
      { scope: 'shared', check: 'open jobs', status: 'info', detail: open === '' ? 'no open jobs' : open },
      stale.length === 0
        ? { scope: 'shared', check: 'stale jobs', status: 'pass', detail: 'none past the alert thresholds' }
        : {
            scope: 'shared',
            check: 'stale jobs',
            status: 'warn',
            detail: [...byKind].map(([kind, n]) => `${kind} ${n}`).join(', '),
          },
    ];
  } catch (error) {
    return [
      {
        scope: 'shared',
        check: 'stale jobs',
        status: 'fail',
        detail: error instanceof Error ? error.message : String(error),
      },
    ];
  } finally {
    await db.$disconnect();
  }
}

const MARK: Record<Finding['status'], string> = { pass: 'PASS', warn: 'WARN', fail: 'FAIL', info: 'INFO' };

/** One line per finding, then a summary line. */
export function formatDoctorReport(report: DoctorReport): string {
  const lines = report.findings.map((f) => `${MARK[f.status]}  [${f.scope}] ${f.check}: ${f.detail}`);
  const failed = report.findings.filter((f) => f.status === 'fail').length;
  const warned = report.findings.filter((f) => f.status === 'warn').length;
  lines.push(
    report.ok
      ? `doctor: OK (${warned} warning${warned === 1 ? '' : 's'})`
      : `doctor: ${failed} check${failed === 1 ? '' : 's'} failed`,
  );
  return lines.join('\n');
}
