/**
 * `pnpm bridge-readiness`: may the legacy style aliases and the stage-room bridge be removed?
 * docs/system.md 9.3 allows it only when all of these hold, and says the sunset date alone is not
 * sufficient:
 *   1. 30 days of persisted submissions show no alias use (ai_room_staging_jobs.legacyStyle) and
 *      no job came through the bridge;
 *   2. 30 days of logs show no alias use (only when log files are given; otherwise unproven);
 *   3. every supported client version sends canonical styles (operator's statement);
 *   4. the legacy queue holds no stage-room message;
 *   5. product approves (operator's statement).
 * The sunset instant having passed is reported too: it is necessary, never sufficient.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Db } from '@staging/db/client';
import { queueNames } from '@staging/platform/queues';
import { BRIDGED_JOB_SQL, LEGACY_STAGE_ROOM_MESSAGE } from '@staging/services/bridge/legacy-stage-room';

export const READINESS_WINDOW_DAYS = 30;
const DAY_MS = 24 * 3600_000;

export interface ReadinessCondition {
  id: 'sunset' | 'persisted-submissions' | 'logs' | 'client-versions' | 'legacy-queue' | 'product-approval';
  title: string;
  met: boolean;
  detail: string;
}

export interface ReadinessReport {
  conditions: ReadinessCondition[];
  ready: boolean;
}

export interface ReadinessOptions {
  db: Db;
  redis: Redis;
  queueSuffix: string;
  now: Date;
  /** AI_STAGING_LEGACY_ALIAS_SUNSET_AT, when known. */
  sunsetAt: Date | null;
  /** pino JSON log files of web, api and worker covering the window. */
  logFiles: string[];
  clientsCanonical: boolean;
  productApproved: boolean;
  windowDays?: number;
}

function days(ms: number): string {
  return `${(ms / DAY_MS).toFixed(1)} days`;
}

async function checkPersisted(
  db: Db,
  now: Date,
  windowStart: Date,
  windowDays: number,
): Promise<ReadinessCondition> {
  const [row] = await db.$queryRaw<
    {
      oldest: Date | null;
      aliasCount: bigint;
      lastAlias: Date | null;
      bridgedCount: bigint;
      lastBridged: Date | null;
    }[]
  >`
    SELECT min("createdAt") AS "oldest",
           count(*) FILTER (WHERE "legacyStyle" IS NOT NULL AND "createdAt" >= ${windowStart}) AS "aliasCount",
           max("createdAt") FILTER (WHERE "legacyStyle" IS NOT NULL) AS "lastAlias",
           count(*) FILTER (WHERE ${BRIDGED_JOB_SQL} AND "createdAt" >= ${windowStart}) AS "bridgedCount",
           max("createdAt") FILTER (WHERE ${BRIDGED_JOB_SQL}) AS "lastBridged"
    FROM "ai_room_staging_jobs"`;
  const title = `${windowDays} days of persisted submissions without legacyStyle`;
  const problems: string[] = [];
  if (row?.oldest === null || row?.oldest === undefined) problems.push('no v2 submission is persisted yet');
  else if (row.oldest > windowStart)
    problems.push(`only ${days(now.getTime() - row.oldest.getTime())} of v2 submissions are persisted`);
  if (row !== undefined && row.aliasCount > 0n)
    problems.push(
      `${row.aliasCount} submissions with legacyStyle in the window (last ${row.lastAlias?.toISOString()})`,
    );
  if (row !== undefined && row.bridgedCount > 0n)
    problems.push(
      `${row.bridgedCount} jobs materialized by the bridge in the window (last ${row.lastBridged?.toISOString()})`,
    );
  if (problems.length > 0)
    return { id: 'persisted-submissions', title, met: false, detail: problems.join('; ') };
  const last =
    row?.lastAlias === null || row?.lastAlias === undefined ? 'never' : row.lastAlias.toISOString();
  return {
    id: 'persisted-submissions',
    title,
    met: true,
    detail: `none since ${windowStart.toISOString()} (last alias use: ${last})`,
  };
}

interface LogScan {
  lines: number;
  oldest: number | null;
  aliasEvents: number;
  lastAlias: number | null;
  unreadable: number;
}

function timeOf(line: Record<string, unknown>): number | null {
  const time = line['time'];
  if (typeof time === 'number') return time;
  if (typeof time === 'string') {
    const parsed = Date.parse(time);
    return Number.isNaN(parsed) ? null : parsed;
  }
  return null;
}

/**
 * Alias use in a log line: a producer submission that carried a legacy style, or any bridge event
 * (a v1 message, materialized or refused, means old clients are still sending).
 */
export function isAliasEvent(line: Record<string, unknown>): boolean {
  const event = line['event'];
  if (typeof event !== 'string') return false;
  if (event.startsWith('legacy_bridge.') && event !== 'legacy_bridge.no_sunset') return true;
  return (
    event === 'ai_room_staging.submitted' && line['legacyStyle'] !== null && line['legacyStyle'] !== undefined
  );
}

async function scanLogFile(file: string, windowStart: number, scan: LogScan): Promise<void> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const text of lines) {
    if (text.trim() === '') continue;
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text) as Record<string, unknown>;
    } catch {
      scan.unreadable += 1;
      continue;
    }
    const time = timeOf(line);
    if (time === null) continue;
    scan.lines += 1;
    scan.oldest = scan.oldest === null ? time : Math.min(scan.oldest, time);
    if (time >= windowStart && isAliasEvent(line)) {
      scan.aliasEvents += 1;
      scan.lastAlias = Math.max(scan.lastAlias ?? 0, time);
    }
  }
}

async function checkLogs(
  files: string[],
  now: Date,
  windowStart: Date,
  windowDays: number,
): Promise<ReadinessCondition> {
  const title = `${windowDays} days of logs without alias use`;
  if (files.length === 0) {
    return {
      id: 'logs',
      title,
      met: false,
      detail: 'not checked: pass --log-file with the web, api and worker logs of the window',
    };
  }
  const scan: LogScan = { lines: 0, oldest: null, aliasEvents: 0, lastAlias: null, unreadable: 0 };
  for (const file of files) await scanLogFile(file, windowStart.getTime(), scan);
  const problems: string[] = [];
  if (scan.oldest === null) problems.push('the log files hold no timestamped JSON lines');
  else if (scan.oldest > windowStart.getTime())
    problems.push(`the logs cover only ${days(now.getTime() - scan.oldest)}`);
  if (scan.aliasEvents > 0)
    problems.push(
      `${scan.aliasEvents} alias or bridge events in the window (last ${new Date(scan.lastAlias ?? 0).toISOString()})`,
    );
  const read = `${scan.lines} lines read from ${files.length} file${files.length === 1 ? '' : 's'}${scan.unreadable > 0 ? `, ${scan.unreadable} not JSON` : ''}`;
  if (problems.length > 0)
    return { id: 'logs', title, met: false, detail: `${problems.join('; ')} (${read})` };
  return {
    id: 'logs',
    title,
    met: true,
    detail: `no alias use since ${windowStart.toISOString()} (${read})`,
  };
}

async function checkLegacyQueue(redis: Redis, queueSuffix: string): Promise<ReadinessCondition> {
  const queue = new Queue(queueNames(queueSuffix).ai, { connection: redis });
  const title = 'legacy queue holds no stage-room message';
  try {
    const waiting = { count: 0, failed: 0 };
    const states = ['waiting', 'prioritized', 'delayed', 'active', 'waiting-children'] as const;
    const total = Object.values(await queue.getJobCounts(...states)).reduce((sum, n) => sum + n, 0);
    for (let start = 0; start < total; start += 500) {
      const jobs = await queue.getJobs([...states], start, start + 499, true);
      waiting.count += jobs.filter((job) => job.name === LEGACY_STAGE_ROOM_MESSAGE.jobName).length;
    }
    const failed = await queue.getJobs(['failed'], 0, 999, true);
    waiting.failed = failed.filter((job) => job.name === LEGACY_STAGE_ROOM_MESSAGE.jobName).length;
    const failedNote =
      waiting.failed > 0
        ? `; ${waiting.failed} refused stage-room messages kept in the failed set (inspect, then clean)`
        : '';
    return waiting.count === 0
      ? {
          id: 'legacy-queue',
          title,
          met: true,
          detail: `${queue.name} has no stage-room message waiting, delayed or active${failedNote}`,
        }
      : {
          id: 'legacy-queue',
          title,
          met: false,
          detail: `${waiting.count} stage-room messages still in ${queue.name}${failedNote}`,
        };
  } finally {
    await queue.close();
  }
}

export async function checkBridgeReadiness(options: ReadinessOptions): Promise<ReadinessReport> {
  const windowDays = Math.max(options.windowDays ?? READINESS_WINDOW_DAYS, READINESS_WINDOW_DAYS);
  const windowStart = new Date(options.now.getTime() - windowDays * DAY_MS);
  const conditions: ReadinessCondition[] = [
    options.sunsetAt === null
      ? {
          id: 'sunset',
          title: 'alias sunset instant has passed',
          met: false,
          detail: 'unknown: AI_STAGING_LEGACY_ALIAS_SUNSET_AT not given',
        }
      : options.now.getTime() > options.sunsetAt.getTime()
        ? {
            id: 'sunset',
            title: 'alias sunset instant has passed',
            met: true,
            detail: `passed at ${options.sunsetAt.toISOString()}`,
          }
        : {
            id: 'sunset',
            title: 'alias sunset instant has passed',
            met: false,
            detail: `aliases are promised until ${options.sunsetAt.toISOString()}`,
          },
    await checkPersisted(options.db, options.now, windowStart, windowDays),
    await checkLogs(options.logFiles, options.now, windowStart, windowDays),
    options.clientsCanonical
      ? {
          id: 'client-versions',
          title: 'supported client versions all send canonical styles',
          met: true,
          detail: 'stated by the operator (--clients-canonical)',
        }
      : {
          id: 'client-versions',
          title: 'supported client versions all send canonical styles',
          met: false,
          detail:
            'not confirmed: pass --clients-canonical once every supported web/native version sends canonical styles',
        },
    await checkLegacyQueue(options.redis, options.queueSuffix),
    options.productApproved
      ? {
          id: 'product-approval',
          title: 'product approves the removal',
          met: true,
          detail: 'stated by the operator (--product-approved)',
        }
      : {
          id: 'product-approval',
          title: 'product approves the removal',
          met: false,
          detail: 'not confirmed: pass --product-approved with product sign-off',
        },
  ];
  return { conditions, ready: conditions.every((c) => c.met) };
}

export function formatReadinessReport(report: ReadinessReport): string {
  const lines = report.conditions.map((c) => `${c.met ? '[met]    ' : '[NOT MET]'} ${c.title}: ${c.detail}`);
  lines.push(
    'The sunset date alone is not sufficient: remove the aliases and the stage-room bridge only when every condition above is met (docs/system.md 9.3).',
  );
  lines.push(
    report.ready
      ? 'bridge-readiness: READY'
      : `bridge-readiness: NOT READY (${report.conditions.filter((c) => !c.met).length} of ${report.conditions.length} conditions not met)`,
  );
  return lines.join('\n');
}
