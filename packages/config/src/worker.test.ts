import { itReportsEachProblem, problemsOf } from './test-problems';
import { TEST_SECRETS, workerTestEnv } from './test-env';
import { parseWorkerEnv } from './worker';

describe('parseWorkerEnv', () => {
  it('reads the optional legacy alias sunset as an instant, null when unset', () => {
    expect(parseWorkerEnv(workerTestEnv()).legacyAliasSunsetAt).toBeNull();
    expect(
      parseWorkerEnv(workerTestEnv({ AI_STAGING_LEGACY_ALIAS_SUNSET_AT: '2027-01-31T23:59:59.999Z' })).legacyAliasSunsetAt?.toISOString(),
    ).toBe('2027-01-31T23:59:59.999Z');
    expect(problemsOf(() => parseWorkerEnv(workerTestEnv({ AI_STAGING_LEGACY_ALIAS_SUNSET_AT: '2027-01-31' })))).toEqual([
      { variable: 'AI_STAGING_LEGACY_ALIAS_SUNSET_AT', rule: expect.stringContaining('ISO 8601 UTC instant') },
    ]);
  });

  it('parses a complete environment and applies the documented defaults', () => {
    const config = parseWorkerEnv(workerTestEnv());
    expect(config).toMatchObject({
      role: 'worker',
      providerApiToken: TEST_SECRETS.PROVIDER_API_TOKEN,
      providerApiBaseUrl: 'https://api.replicate.com/v1',
      providerModel: 'openai/gpt-image-2',
      providerCancelAfterSeconds: 600,
      providerReadLimitPerMinute: 2_400,
      providerReconcileIntervalMs: 60_000,
      webhookBaseUrl: 'https://staging-api.example.com',
      userHashSecret: TEST_SECRETS.AI_STAGING_USER_HASH_SECRET,
      stagingConcurrency: 4,
      paidStartLimitPerMinute: 6,
      paidStartLimitWindowMs: 60_000,
      descriptionConcurrency: 2,
      costMicrousd: {},
      dashboard: undefined,
      port: 4100,
      deletionOutboxIntervalMs: 30_000,
      warnings: [],
    });
    expect(config).not.toHaveProperty('pricingVersion');
  });

  it('reads every worker value when given', () => {
    const config = parseWorkerEnv(
      workerTestEnv({
        PROVIDER_API_BASE_URL: 'http://127.0.0.1:4200/v1/',
        PROVIDER_MODEL: 'openai/gpt-image-2',
        PROVIDER_CANCEL_AFTER_SECONDS: '90',
        PROVIDER_READ_LIMIT_PER_MINUTE: '600',
        PROVIDER_RECONCILE_INTERVAL_MS: '5000',
        AI_STAGING_CONCURRENCY: '8',
        AI_STAGING_RATE_LIMIT_PER_MINUTE: '12',
        AI_STAGING_RATE_LIMIT_WINDOW_MS: '500',
        AI_DESCRIPTION_CONCURRENCY: '3',
        AI_STAGING_COST_MICROUSD_MEDIUM: '42000',
        AI_STAGING_COST_MICROUSD_HIGH: '167000',
        AI_STAGING_COST_MICROUSD_LOW: '0',
        AI_STAGING_PRICING_VERSION: 'replicate-2026-11-01',
        QUEUE_DASHBOARD_USER: 'ops',
        QUEUE_DASHBOARD_PASSWORD: TEST_SECRETS.QUEUE_DASHBOARD_PASSWORD,
        PORT: '5100',
        DELETION_OUTBOX_INTERVAL_MS: '1000',
      }),
    );
    expect(config).toMatchObject({
      // Trailing slashes go so callers can append /predictions.
      providerApiBaseUrl: 'http://127.0.0.1:4200/v1',
      providerCancelAfterSeconds: 90,
      providerReadLimitPerMinute: 600,
      providerReconcileIntervalMs: 5_000,
      stagingConcurrency: 8,
      paidStartLimitPerMinute: 12,
      paidStartLimitWindowMs: 500,
      descriptionConcurrency: 3,
      costMicrousd: { medium: 42_000, high: 167_000, low: 0 },
      pricingVersion: 'replicate-2026-11-01',
      dashboard: { user: 'ops', password: TEST_SECRETS.QUEUE_DASHBOARD_PASSWORD, writesEnabled: false },
      port: 5100,
      deletionOutboxIntervalMs: 1000,
      warnings: [],
    });
  });

  // prettier-ignore
  itReportsEachProblem((vars) => parseWorkerEnv(workerTestEnv(vars)), {
    PROVIDER_API_TOKEN: [[undefined, 'is required'], ['', 'is required'], ['r8_abc def', 'whitespace']],
    PROVIDER_API_BASE_URL: [['api.replicate.com/v1', 'http(s) URL']],
    PROVIDER_MODEL: [['gpt-image-2', 'owner/name'], ['openai/gpt-image-2:latest', 'owner/name']],
    PROVIDER_WEBHOOK_BASE_URL: [[undefined, 'is required'], ['https://staging-api.example.com/', 'trailing slash'], ['http://staging-api.example.com', 'must use https'], ['https://127.0.0.1:4000', 'internal host']],
    AI_STAGING_USER_HASH_SECRET: [[undefined, 'is required'], ['ab'.repeat(31) + 'a', 'exactly 64 hexadecimal characters'], ['ab'.repeat(32) + 'a', 'exactly 64 hexadecimal characters'], ['zz'.repeat(32), 'exactly 64 hexadecimal characters']],
    AI_STAGING_CONCURRENCY: [['0', 'integer >= 1'], ['2.5', 'integer >= 1']],
    AI_STAGING_RATE_LIMIT_PER_MINUTE: [['0', 'integer >= 1'], ['six', 'integer >= 1']],
    PROVIDER_CANCEL_AFTER_SECONDS: [['4', 'integer from 5 to 3600'], ['1m', 'integer from 5 to 3600']],
    PROVIDER_READ_LIMIT_PER_MINUTE: [['0', 'integer from 1 to 3000'], ['3001', 'integer from 1 to 3000']],
    PROVIDER_RECONCILE_INTERVAL_MS: [['999', 'integer from 1000 to 3600000'], ['3600001', 'integer from 1000 to 3600000']],
    AI_STAGING_RATE_LIMIT_WINDOW_MS: [['0', 'integer >= 1']],
    AI_DESCRIPTION_CONCURRENCY: [['-2', 'integer >= 1']],
    AI_STAGING_COST_MICROUSD_MEDIUM: [['-1', 'integer >= 0'], ['0.04', 'integer >= 0'], ['$0.04', 'integer >= 0']],
    AI_STAGING_COST_MICROUSD_: [['10', 'must name a price key']],
    'AI_STAGING_COST_MICROUSD_MEDIUM-HD': [['10', 'must name a price key']],
    PORT: [['70000', 'integer from 0 to 65535']],
    DELETION_OUTBOX_INTERVAL_MS: [['0', 'integer >= 1']],
    QUEUE_DASHBOARD_WRITES: [['true', 'must be one of enabled, disabled'], ['Enabled', 'must be one of enabled, disabled']],
  });

  it('accepts PORT 0, which asks the OS for a free port (tests beside a running stack)', () => {
    expect(parseWorkerEnv(workerTestEnv({ PORT: '0' })).port).toBe(0);
  });

  it('accepts an upper-case hash secret', () => {
    const secret = 'AB'.repeat(32);
    expect(parseWorkerEnv(workerTestEnv({ AI_STAGING_USER_HASH_SECRET: secret })).userHashSecret).toBe(secret);
  });

  it('lower-cases cost keys', () => {
    expect(parseWorkerEnv(workerTestEnv({ AI_STAGING_COST_MICROUSD_HIGH_HD: '5' })).costMicrousd).toEqual({ high_hd: 5 });
  });

  describe('user hash secret independence', () => {
    it('refuses a hash secret equal to AUTH_SECRET present in the worker env', () => {
      const env = workerTestEnv({ AUTH_SECRET: TEST_SECRETS.AI_STAGING_USER_HASH_SECRET });
      expect(problemsOf(() => parseWorkerEnv(env))).toEqual([
        { variable: 'AI_STAGING_USER_HASH_SECRET', rule: expect.stringContaining('must differ from AUTH_SECRET') },
      ]);
    });

    it('compares without regard to hex case', () => {
      const env = workerTestEnv({ AUTH_SECRET: TEST_SECRETS.AI_STAGING_USER_HASH_SECRET.toUpperCase() });
      expect(problemsOf(() => parseWorkerEnv(env)).map((p) => p.variable)).toEqual(['AI_STAGING_USER_HASH_SECRET']);
    });

    it('accepts a different AUTH_SECRET', () => {
      expect(problemsOf(() => parseWorkerEnv(workerTestEnv({ AUTH_SECRET: TEST_SECRETS.AUTH_SECRET })))).toEqual([]);
    });
  });

  describe('provider API base URL', () => {
    it('allows http outside production (the local simulator)', () => {
      expect(parseWorkerEnv(workerTestEnv({ PROVIDER_API_BASE_URL: 'http://127.0.0.1:4200' })).providerApiBaseUrl).toBe(
        'http://127.0.0.1:4200',
      );
    });

    it('requires https in production, because the token travels in every request', () => {
      const env = workerTestEnv({ NODE_ENV: 'production', PROVIDER_API_BASE_URL: 'http://127.0.0.1:4200' });
      expect(problemsOf(() => parseWorkerEnv(env))).toEqual([
        { variable: 'PROVIDER_API_BASE_URL', rule: expect.stringContaining('https URL') },
      ]);
    });
  });

  describe('ALLOW_INSECURE_WEBHOOK_BASE_URL', () => {
    const local = 'http://127.0.0.1:4000';

    it.each(['development', 'test'])('lets %s point the webhook at the local api over http', (nodeEnv) => {
      const env = workerTestEnv({ NODE_ENV: nodeEnv, PROVIDER_WEBHOOK_BASE_URL: local, ALLOW_INSECURE_WEBHOOK_BASE_URL: 'true' });
      const config = parseWorkerEnv(env);
      expect(config.webhookBaseUrl).toBe(local);
      expect(config.warnings).toEqual([expect.stringContaining('ALLOW_INSECURE_WEBHOOK_BASE_URL is on')]);
    });

    it('still requires an origin without a trailing slash or path', () => {
      for (const value of [`${local}/`, `${local}/api`]) {
        const env = workerTestEnv({ PROVIDER_WEBHOOK_BASE_URL: value, ALLOW_INSECURE_WEBHOOK_BASE_URL: 'true' });
        expect(problemsOf(() => parseWorkerEnv(env)).map((p) => p.variable)).toEqual(['PROVIDER_WEBHOOK_BASE_URL']);
      }
    });

    it.each(['TRUE', '1', 'yes', 'false'])('is off for %p', (flag) => {
      const env = workerTestEnv({ PROVIDER_WEBHOOK_BASE_URL: local, ALLOW_INSECURE_WEBHOOK_BASE_URL: flag });
      expect(problemsOf(() => parseWorkerEnv(env)).map((p) => p.rule)).toEqual([
        'must use https',
        expect.stringContaining('internal host'),
      ]);
    });

    it('is refused in production, and the strict rules still apply', () => {
      const env = workerTestEnv({
        NODE_ENV: 'production',
        PROVIDER_WEBHOOK_BASE_URL: local,
        ALLOW_INSECURE_WEBHOOK_BASE_URL: 'true',
      });
      expect(problemsOf(() => parseWorkerEnv(env))).toEqual([
        { variable: 'ALLOW_INSECURE_WEBHOOK_BASE_URL', rule: expect.stringContaining('production') },
        { variable: 'PROVIDER_WEBHOOK_BASE_URL', rule: 'must use https' },
        { variable: 'PROVIDER_WEBHOOK_BASE_URL', rule: expect.stringContaining('internal host') },
      ]);
    });
  });

  describe('queue dashboard credentials', () => {
    it('stays off without a warning when neither is set', () => {
      const config = parseWorkerEnv(workerTestEnv());
      expect(config.dashboard).toBeUndefined();
      expect(config.warnings).toEqual([]);
    });

    it.each([
      [{ QUEUE_DASHBOARD_USER: 'ops' }, 'QUEUE_DASHBOARD_PASSWORD'],
      [{ QUEUE_DASHBOARD_PASSWORD: TEST_SECRETS.QUEUE_DASHBOARD_PASSWORD }, 'QUEUE_DASHBOARD_USER'],
      [{ QUEUE_DASHBOARD_USER: 'ops', QUEUE_DASHBOARD_PASSWORD: '' }, 'QUEUE_DASHBOARD_PASSWORD'],
    ])('stays off with a warning when only one is set (%p)', (vars, missing) => {
      const config = parseWorkerEnv(workerTestEnv(vars));
      expect(config.dashboard).toBeUndefined();
      expect(config.warnings).toEqual([expect.stringContaining(`${missing} is not set`)]);
      expect(config.warnings.join('\n')).not.toContain(TEST_SECRETS.QUEUE_DASHBOARD_PASSWORD);
    });

    it.each([
      [undefined, false],
      ['', false],
      ['disabled', false],
      ['enabled', true],
    ])('QUEUE_DASHBOARD_WRITES=%p allows changes through the dashboard: %p', (value, writesEnabled) => {
      const config = parseWorkerEnv(
        workerTestEnv({
          QUEUE_DASHBOARD_USER: 'ops',
          QUEUE_DASHBOARD_PASSWORD: TEST_SECRETS.QUEUE_DASHBOARD_PASSWORD,
          QUEUE_DASHBOARD_WRITES: value,
        }),
      );
      expect(config.dashboard?.writesEnabled).toBe(writesEnabled);
    });
  });

  it('warns when prices are set without a pricing version', () => {
    const config = parseWorkerEnv(workerTestEnv({ AI_STAGING_COST_MICROUSD_MEDIUM: '42000' }));
    expect(config.warnings).toEqual([expect.stringContaining('AI_STAGING_PRICING_VERSION')]);
  });

  it('lists every worker problem in one error', () => {
    const problems = problemsOf(() =>
      parseWorkerEnv({
        PROVIDER_WEBHOOK_SIGNING_SECRET: TEST_SECRETS.PROVIDER_WEBHOOK_SIGNING_SECRET,
        PROVIDER_WEBHOOK_BASE_URL: 'http://10.0.0.1/',
        AI_STAGING_CONCURRENCY: '0',
      }),
    );
    expect([...new Set(problems.map((p) => p.variable))]).toEqual([
      'PROVIDER_WEBHOOK_SIGNING_SECRET',
      'DATABASE_URL',
      'VALKEY_URL',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
      'S3_BUCKET',
      'PROVIDER_API_TOKEN',
      'PROVIDER_WEBHOOK_BASE_URL',
      'AI_STAGING_USER_HASH_SECRET',
      'AI_STAGING_CONCURRENCY',
    ]);
  });
});
