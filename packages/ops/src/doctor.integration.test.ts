/**
 * `pnpm doctor` against a local stack: the real api as a process of its own (webhook route), the
 * provider simulator (model schema), s3rver, the Jest run's Postgres and the local Redis.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiTestEnv, TEST_SECRETS, webTestEnv, workerTestEnv } from '@staging/config/test-env';
import { createTestDatabase } from '@staging/db/testing';
import type { TestDatabase } from '@staging/db/testing';
import { createRedis } from '@staging/platform/queues';
import { producerParityKey, publishProducerFingerprint } from '@staging/services/parity/producer-parity';
import { startApiProcess } from '@staging/stack/api-process';
import { startS3rver } from '@staging/stack/s3-server';
import type { RunningS3rver } from '@staging/stack/s3-server';
import { startProviderSimulator } from '@staging/provider-simulator/simulator';
import type { ProviderSimulator } from '@staging/provider-simulator/simulator';
import { checkWebhookRoute } from './doctor-checks';
import { formatDoctorReport, runDoctor } from './doctor';
import type { DoctorReport, RoleEnv } from './doctor';
import { runOpsCli } from './testing/run-ops-cli';

const BUCKET = 'doctor-test-bucket';

let s3: RunningS3rver;
let sim: ProviderSimulator;
let suffix: string;
const servers: (() => Promise<void>)[] = [];

/** The real api as a process on a free port; resolves with its origin. */
async function startApi(): Promise<string> {
  const api = await startApiProcess(
    apiTestEnv(sharedEnv({ S3_ENDPOINT: s3.endpoint, S3_BUCKET: BUCKET, PORT: '0', LOG_LEVEL: 'info' })),
  );
  servers.push(() => api.stop());
  return api.origin;
}

/** Answers every request with `status`, as an api without its signing secret answers the webhook (500). */
async function startStubApi(status: number): Promise<string> {
  const server = createServer((_req, res) => res.writeHead(status).end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function sharedEnv(overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    DATABASE_URL: process.env.DATABASE_URL,
    VALKEY_URL: process.env.VALKEY_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_SUFFIX: suffix,
    AI_STAGING_ASPECT_RATIO: '3:2',
    ...overrides,
  };
}

function roles(
  apiOrigin: string,
  overrides: Partial<Record<'web' | 'api' | 'worker', Record<string, string | undefined>>> = {},
): RoleEnv[] {
  return [
    { role: 'web', env: webTestEnv(sharedEnv(overrides.web)), source: 'test web env' },
    {
      role: 'api',
      env: apiTestEnv(sharedEnv({ S3_ENDPOINT: s3.endpoint, S3_BUCKET: BUCKET, ...overrides.api })),
      source: 'test api env',
    },
    {
      role: 'worker',
      env: workerTestEnv(
        sharedEnv({
          S3_ENDPOINT: s3.endpoint,
          S3_BUCKET: BUCKET,
          PROVIDER_API_BASE_URL: sim.url,
          PROVIDER_API_TOKEN: TEST_SECRETS.PROVIDER_API_TOKEN,
          PROVIDER_WEBHOOK_BASE_URL: apiOrigin,
          ALLOW_INSECURE_WEBHOOK_BASE_URL: 'true',
          ...overrides.worker,
        }),
      ),
      source: 'test worker env',
    },
  ];
}

function finding(report: DoctorReport, check: string, scope?: string) {
  return report.findings.filter((f) => f.check === check && (scope === undefined || f.scope === scope));
}

beforeAll(async () => {
  suffix = `${process.env.QUEUE_SUFFIX ?? ''}-d${randomBytes(4).toString('hex')}`;
  s3 = await startS3rver({ buckets: [BUCKET] });
  sim = await startProviderSimulator({
    token: TEST_SECRETS.PROVIDER_API_TOKEN,
    webhookSigningSecret: TEST_SECRETS.PROVIDER_WEBHOOK_SIGNING_SECRET,
  });
});

afterAll(async () => {
  for (const stop of servers) await stop();
  await sim.stop();
  await s3.stop();
  const redis = createRedis(process.env.VALKEY_URL ?? 'redis://127.0.0.1:6379', { role: 'worker' });
  await redis.del(producerParityKey(suffix));
  redis.disconnect();
});

describe('doctor', () => {
  it('passes on a healthy local stack and reports every area', async () => {
    const apiOrigin = await startApi();
    const report = await runDoctor({ roles: roles(apiOrigin) });
    const text = formatDoctorReport(report);
    expect(report.findings.filter((f) => f.status === 'fail')).toEqual([]);
    expect(report.ok).toBe(true);
    expect(
      finding(report, 'configuration')
        .filter((f) => f.status === 'pass')
        .map((f) => f.scope),
    ).toEqual(['web', 'api', 'worker']);
    expect(finding(report, 'migrations')).toMatchObject([{ status: 'pass' }]);
    expect(finding(report, 'queue store')).toMatchObject([
      { status: 'pass', detail: expect.stringContaining('noeviction') },
    ]);
    expect(finding(report, 'bucket').map((f) => `${f.scope}:${f.status}`)).toEqual([
      'api:pass',
      'worker:pass',
    ]);
    expect(finding(report, 'webhook route')).toMatchObject([
      { status: 'pass', detail: expect.stringContaining('401') },
    ]);
    expect(finding(report, 'model schema').map((f) => `${f.scope}:${f.status}`)).toEqual([
      'web:pass',
      'api:pass',
      'worker:pass',
    ]);
    expect(finding(report, 'producer parity')).toMatchObject([{ status: 'pass' }]);
    expect(finding(report, 'kill switch').map((f) => f.scope)).toEqual(['web', 'api', 'worker']);
    expect(finding(report, 'daily purchase cap')).toMatchObject([
      { scope: 'shared', status: 'info', detail: expect.stringContaining('AI_DAILY_PURCHASE_CAP unset') },
    ]);
    expect(finding(report, 'queue dashboard')).toMatchObject([{ scope: 'worker', status: 'info' }]);
    expect(finding(report, `queue ai-staging${suffix}`)).toHaveLength(1);
    expect(finding(report, `queue ai${suffix}`)).toHaveLength(1);
    expect(finding(report, `queue search-indexing${suffix}`)).toHaveLength(1);
    expect(text).toMatch(/doctor: OK/);
    // Secrets are never printed.
    for (const secret of Object.values(TEST_SECRETS)) expect(text).not.toContain(secret);
  });

  it('fails with the right diagnosis when the api has no signing secret (500)', async () => {
    const apiOrigin = await startStubApi(500);
    const report = await runDoctor({ roles: roles(apiOrigin) });
    expect(report.ok).toBe(false);
    expect(finding(report, 'webhook route')).toMatchObject([
      {
        status: 'fail',
        detail: expect.stringContaining(
          'signing secret is probably missing on the api (PROVIDER_WEBHOOK_SIGNING_SECRET)',
        ),
      },
    ]);
    expect(formatDoctorReport(report)).toMatch(/doctor: 1 check failed/);
  });

  it('fails on producer values that differ between roles and on a running producer that disagrees', async () => {
    const apiOrigin = await startApi();
    const differing = await runDoctor({
      roles: roles(apiOrigin, { web: { AI_STAGING_OUTPUT_FORMAT: 'png' } }),
    });
    expect(finding(differing, 'producer parity')).toMatchObject([
      { status: 'fail', detail: expect.stringContaining('web=medium/3:2/png/92') },
    ]);

    const redis = createRedis(process.env.VALKEY_URL ?? 'redis://127.0.0.1:6379', { role: 'worker' });
    await publishProducerFingerprint(redis, {
      role: 'web',
      instanceId: 'web-old-release',
      values: { quality: 'medium', aspectRatio: '1:1', outputFormat: 'jpeg', outputCompression: 92 },
      queueSuffix: suffix,
    });
    const live = await runDoctor({ roles: roles(apiOrigin) });
    expect(finding(live, 'live producer parity')).toMatchObject([
      { status: 'fail', detail: expect.stringContaining('web@web-old-release') },
    ]);
    expect(live.ok).toBe(false);
    await redis.del(producerParityKey(suffix));
    redis.disconnect();
  });

  it('reports invalid environments, pending migrations, the kill-switch order and a daily cap that differs between roles', async () => {
    const apiOrigin = await startApi();
    const database: TestDatabase = await createTestDatabase({ upTo: '0009' });
    try {
      const report = await runDoctor({
        roles: roles(apiOrigin, {
          web: { DATABASE_URL: database.url, PROVIDER_API_TOKEN: 'r8_onTheWrongRole' },
          api: { DATABASE_URL: database.url, AI_ROOM_STAGING_ENABLED: 'true', AI_DAILY_PURCHASE_CAP: '500' },
          worker: { DATABASE_URL: database.url, AI_ROOM_STAGING_ENABLED: 'false', AI_DAILY_PURCHASE_CAP: '300' },
        }),
      });
      expect(finding(report, 'configuration', 'web')).toMatchObject([
        { status: 'fail', detail: expect.stringContaining('PROVIDER_API_TOKEN must not be set on the web') },
      ]);
      expect(finding(report, 'migrations')).toMatchObject([
        { status: 'fail', detail: expect.stringContaining('pending: 0010_ai_room_staging_v2_constraints') },
      ]);
      expect(finding(report, 'kill switch', 'shared')).toMatchObject([{ status: 'warn' }]);
      expect(finding(report, 'daily purchase cap').filter((f) => f.detail.includes('differs'))).toMatchObject([
        { status: 'warn', detail: expect.stringContaining('api=500, worker=300') },
      ]);
      expect(formatDoctorReport(report)).not.toContain('r8_onTheWrongRole');
    } finally {
      await database.drop();
    }
  });

  it.each([
    [404, 'route missing or misrouted'],
    [502, 'api unreachable behind the proxy'],
    [503, 'api unreachable behind the proxy'],
    [301, 'redirect defect'],
    [308, 'redirect defect'],
    [204, 'DEFECT: an unsigned callback was accepted'],
  ])('diagnoses a webhook answer of %i', async (status, diagnosis) => {
    const server = createServer((_req, res) => {
      res
        .writeHead(status, status >= 300 && status < 400 ? { location: 'https://elsewhere.example/' } : {})
        .end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const result = await checkWebhookRoute(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      expect(result).toMatchObject({ status: 'fail', detail: expect.stringContaining(diagnosis) });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('the CLI reads env files per role and exits 0 when healthy, 1 on a failure', async () => {
    const goodApi = await startApi();
    const badApi = await startStubApi(500);
    const dir = mkdtempSync(path.join(tmpdir(), 'doctor-'));
    try {
      const write = (name: string, env: Record<string, string | undefined>) => {
        const file = path.join(dir, name);
        writeFileSync(
          file,
          Object.entries(env)
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => `${k}="${v}"`)
            .join('\n'),
        );
        return file;
      };
      const cli = (args: string[]) => runOpsCli('doctor-cli.ts', args);
      const run = (apiOrigin: string) => {
        const [, api, worker] = roles(apiOrigin);
        return cli([
          '--role',
          'api',
          '--env-file',
          write('api.env', api!.env),
          '--role',
          'worker',
          '--env-file',
          write('worker.env', worker!.env),
        ]);
      };
      const good = await run(goodApi);
      expect(good.stdout).toMatch(/doctor: OK/);
      expect(good.status).toBe(0);
      const bad = await run(badApi);
      expect(bad.stdout).toMatch(/FAIL {2}\[worker\] webhook route: api answered 500/);
      expect(bad.status).toBe(1);
      expect((await cli([])).status).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // A hang guard over the three CLI runs, each with its own guard (runOpsCli).
  }, 3 * 120_000 + 30_000);
});
