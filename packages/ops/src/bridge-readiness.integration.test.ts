import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { createDb } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { createTestDatabase } from '@staging/db/testing';
import type { TestDatabase } from '@staging/db/testing';
import { createOriginalImage, createProperty, createStagingJob, createUser } from '@staging/db/testing/factories';
import { createRedis } from '@staging/platform/queues';
import { enqueueLegacyStageRoomMessage } from '@staging/services/bridge/legacy-stage-room';
import { createAiQueue } from '@staging/services/description/ai-queue';
import type { AiQueue } from '@staging/services/description/ai-queue';
import { checkBridgeReadiness, formatReadinessReport } from './bridge-readiness';
import type { ReadinessOptions } from './bridge-readiness';
import { runOpsCli } from './testing/run-ops-cli';

const DAY = 24 * 3600_000;
const NOW = new Date();
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

let database: TestDatabase;
let db: Db;
let redis: Redis;
let suffix: string;
let queue: AiQueue;
let dir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url, { maxConnections: 3 });
  redis = createRedis(process.env.VALKEY_URL ?? 'redis://127.0.0.1:6379', {
    role: 'worker',
    connectionName: 'readiness-test',
  });
  dir = mkdtempSync(path.join(tmpdir(), 'readiness-'));
});

afterAll(async () => {
  await db.$disconnect();
  await database.drop();
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await db.aiJob.deleteMany({});
  suffix = `${process.env.QUEUE_SUFFIX ?? ''}-r${randomBytes(4).toString('hex')}`;
  queue = createAiQueue(redis, suffix);
});

afterEach(async () => {
  await queue.obliterate({ force: true });
  await queue.close();
});

/** A persisted v2 submission at `createdAt`. */
async function submission(
  createdAt: Date,
  style: { submittedStyle: string; legacyStyle?: string | null; bridge?: boolean },
): Promise<void> {
  const owner = await createUser(db);
  const property = await createProperty(db, { ownerAgentId: owner.id });
  const original = await createOriginalImage(db, { propertyId: property.id });
  await createStagingJob(db, {
    original,
    job: { status: 'SUCCESS', createdAt },
    staging: {
      canonicalRoomType: 'BEDROOM',
      canonicalStyle: 'SCANDINAVIAN',
      submittedStyle: style.submittedStyle,
      legacyStyle: style.legacyStyle ?? null,
      ...(style.bridge === true ? { legacyMetadata: { bridge: { source: 'legacy-queue' } } } : {}),
      createdAt,
    },
  });
}

function logFile(name: string, lines: Record<string, unknown>[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\nnot json at all\n`);
  return file;
}

const cleanLogs = () =>
  logFile(`clean-${randomBytes(3).toString('hex')}.log`, [
    { level: 'info', time: ago(35).toISOString(), service: 'api', msg: 'api listening' },
    {
      level: 'info',
      time: ago(33).toISOString(),
      service: 'api',
      event: 'ai_room_staging.submitted',
      legacyStyle: 'scandi',
    },
    {
      level: 'info',
      time: ago(2).toISOString(),
      service: 'web',
      event: 'ai_room_staging.submitted',
      legacyStyle: null,
    },
    { level: 'warn', time: ago(1).toISOString(), service: 'worker', event: 'legacy_bridge.no_sunset' },
  ]);

/** The connections and operator facts of a ready check; each test overrides what it varies. */
function readinessOptions(overrides: Partial<ReadinessOptions> = {}): ReadinessOptions {
  return {
    db,
    redis,
    queueSuffix: suffix,
    now: NOW,
    sunsetAt: ago(31),
    clientsCanonical: true,
    productApproved: true,
    ...overrides,
    logFiles: overrides.logFiles ?? [cleanLogs()],
  };
}

async function readyFixture(): Promise<ReadinessOptions> {
  // Aliases were used before the window, never since.
  await submission(ago(40), { submittedStyle: ' Scandi ', legacyStyle: 'scandi' });
  await submission(ago(20), { submittedStyle: 'MODERN' });
  await submission(ago(1), { submittedStyle: 'SCANDINAVIAN' });
  return readinessOptions();
}

function unmet(report: Awaited<ReturnType<typeof checkBridgeReadiness>>): string[] {
  return report.conditions.filter((c) => !c.met).map((c) => c.id);
}

describe('bridge-readiness', () => {
  it('is ready when every condition holds, and still says the date alone is not sufficient', async () => {
    const report = await checkBridgeReadiness(await readyFixture());
    expect(unmet(report)).toEqual([]);
    expect(report.ready).toBe(true);
    const text = formatReadinessReport(report);
    expect(text).toContain('The sunset date alone is not sufficient');
    expect(text).toMatch(/bridge-readiness: READY$/);
    expect(text).toContain('[met]     30 days of persisted submissions without legacyStyle');
  });

  it('is not ready on the date alone: a passed sunset with nothing else proven', async () => {
    const report = await checkBridgeReadiness(
      readinessOptions({ sunsetAt: ago(60), logFiles: [], clientsCanonical: false, productApproved: false }),
    );
    expect(report.ready).toBe(false);
    expect(unmet(report)).toEqual(['persisted-submissions', 'logs', 'client-versions', 'product-approval']);
    expect(formatReadinessReport(report)).toMatch(/NOT READY \(4 of 6 conditions not met\)/);
  });

  it('each condition alone makes it not ready', async () => {
    const base = await readyFixture();
    expect(unmet(await checkBridgeReadiness({ ...base, sunsetAt: new Date(NOW.getTime() + DAY) }))).toEqual([
      'sunset',
    ]);
    expect(unmet(await checkBridgeReadiness({ ...base, clientsCanonical: false }))).toEqual([
      'client-versions',
    ]);
    expect(unmet(await checkBridgeReadiness({ ...base, productApproved: false }))).toEqual([
      'product-approval',
    ]);
    expect(unmet(await checkBridgeReadiness({ ...base, logFiles: [] }))).toEqual(['logs']);

    const aliasLog = logFile('alias.log', [
      { time: ago(35).toISOString(), msg: 'start' },
      { time: ago(5).toISOString(), event: 'ai_room_staging.submitted', legacyStyle: 'loft' },
    ]);
    const logReport = await checkBridgeReadiness({ ...base, logFiles: [base.logFiles[0]!, aliasLog] });
    expect(unmet(logReport)).toEqual(['logs']);
    expect(logReport.conditions.find((c) => c.id === 'logs')?.detail).toContain(
      '1 alias or bridge events in the window',
    );
    const shortLog = logFile('short.log', [{ time: ago(3).toISOString(), msg: 'only three days' }]);
    expect(unmet(await checkBridgeReadiness({ ...base, logFiles: [shortLog] }))).toEqual(['logs']);

    const jobId = await enqueueLegacyStageRoomMessage(queue, {
      imageId: 'img',
      style: 'Retro',
      requestedByUserId: 'u',
      submittedAt: NOW.toISOString(),
    });
    const queued = await checkBridgeReadiness(base);
    expect(unmet(queued)).toEqual(['legacy-queue']);
    expect(queued.conditions.find((c) => c.id === 'legacy-queue')?.detail).toContain(
      `1 stage-room messages still in ai${suffix}`,
    );
    await queue.remove(jobId);

    await submission(ago(10), { submittedStyle: 'Loft', legacyStyle: 'loft' });
    const persisted = await checkBridgeReadiness(base);
    expect(unmet(persisted)).toEqual(['persisted-submissions']);
    expect(persisted.conditions.find((c) => c.id === 'persisted-submissions')?.detail).toContain(
      '1 submissions with legacyStyle in the window',
    );
  });

  it('needs 30 days of history and no bridged jobs in the window', async () => {
    await submission(ago(10), { submittedStyle: 'MODERN' });
    const young = await checkBridgeReadiness(readinessOptions({ sunsetAt: ago(1) }));
    expect(young.conditions.find((c) => c.id === 'persisted-submissions')).toMatchObject({
      met: false,
      detail: expect.stringContaining('only 10.0 days'),
    });

    await submission(ago(45), { submittedStyle: 'MODERN' });
    await submission(ago(3), { submittedStyle: 'MODERN', bridge: true });
    const bridged = await checkBridgeReadiness(readinessOptions({ sunsetAt: ago(1) }));
    expect(bridged.conditions.find((c) => c.id === 'persisted-submissions')).toMatchObject({
      met: false,
      detail: expect.stringContaining('1 jobs materialized by the bridge'),
    });
  });

  it('the CLI exits 0 only when ready', async () => {
    const options = await readyFixture();
    const envFile = path.join(dir, 'api.env');
    writeFileSync(
      envFile,
      [
        `DATABASE_URL=${database.url}`,
        `VALKEY_URL=${process.env.VALKEY_URL ?? 'redis://127.0.0.1:6379'}`,
        `QUEUE_SUFFIX=${suffix}`,
        `AI_STAGING_LEGACY_ALIAS_SUNSET_AT=${ago(31).toISOString()}`,
      ].join('\n'),
    );
    const cli = (args: string[]) => runOpsCli('bridge-readiness-cli.ts', ['--env-file', envFile, ...args]);
    const ready = await cli([
      '--log-file',
      options.logFiles[0]!,
      '--clients-canonical',
      '--product-approved',
    ]);
    expect(ready.stdout).toMatch(/bridge-readiness: READY/);
    expect(ready.status).toBe(0);
    const notReady = await cli(['--log-file', options.logFiles[0]!, '--clients-canonical']);
    expect(notReady.stdout).toMatch(/\[NOT MET\] product approves the removal/);
    expect(notReady.stdout).toContain('The sunset date alone is not sufficient');
    expect(notReady.status).toBe(1);
  });
});
