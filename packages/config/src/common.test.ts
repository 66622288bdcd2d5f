import fc from 'fast-check';
import { parseApiEnv } from './api';
import type { Env } from './env-reader';
import { itReportsEachProblem, messageOf, problemsOf, variablesOf } from './test-problems';
import { apiTestEnv, TEST_SECRETS, webTestEnv, workerTestEnv } from './test-env';
import { parseWebEnv } from './web';
import { parseWorkerEnv } from './worker';

// Every rule shared by the three roles is checked against each role's parser.
const roles = [
  { role: 'web', parse: parseWebEnv, env: webTestEnv },
  { role: 'api', parse: parseApiEnv, env: apiTestEnv },
  { role: 'worker', parse: parseWorkerEnv, env: workerTestEnv },
] as const;

describe.each(roles)('common settings on the $role role', ({ parse, env }) => {
  const without = (...names: string[]): Env => {
    const out = env();
    for (const name of names) delete out[name];
    return out;
  };

  it('applies the documented defaults', () => {
    const config = parse(without('NODE_ENV', 'QUEUE_SUFFIX', 'AI_ROOM_STAGING_ENABLED'));
    expect(config.nodeEnv).toBe('development');
    expect(config.queueSuffix).toBe('');
    expect(config.stagingEnabled).toBe(false);
    expect(config.dailyPurchaseCap).toBeNull();
    expect(config.producer).toEqual({ quality: 'medium', aspectRatio: '1:1', outputFormat: 'jpeg', outputCompression: 92 });
    expect(config.logLevel).toBe('info');
    expect(config.sentry).toEqual({ environment: 'development', release: 'dev' });
  });

  it('reads every common value when given', () => {
    const config = parse(
      env({
        NODE_ENV: 'production',
        QUEUE_SUFFIX: '-pr-42',
        AI_STAGING_QUALITY: 'high',
        AI_STAGING_ASPECT_RATIO: '3:2',
        AI_STAGING_OUTPUT_FORMAT: 'webp',
        AI_STAGING_OUTPUT_COMPRESSION: '80',
        LOG_LEVEL: 'debug',
        SENTRY_DSN: 'https://public@o1.ingest.sentry.io/2',
        SENTRY_ENVIRONMENT: 'staging',
        RELEASE: 'v1.2.3',
        AI_DAILY_PURCHASE_CAP: '250',
        // the web refuses production without a trusted proxy; the others ignore or accept it.
        TRUSTED_PROXY_HOPS: '1',
        // production requires an https provider URL and forbids the override; neither is set here.
      }),
    );
    expect(config).toMatchObject({
      nodeEnv: 'production',
      databaseUrl: 'postgresql://postgres@127.0.0.1:5432/staging_test',
      valkeyUrl: 'redis://127.0.0.1:6379',
      queueSuffix: '-pr-42',
      dailyPurchaseCap: 250,
      producer: { quality: 'high', aspectRatio: '3:2', outputFormat: 'webp', outputCompression: 80 },
      logLevel: 'debug',
      sentry: { dsn: 'https://public@o1.ingest.sentry.io/2', environment: 'staging', release: 'v1.2.3' },
    });
  });

  it('defaults the Sentry environment to NODE_ENV', () => {
    expect(parse(env({ NODE_ENV: 'test' })).sentry.environment).toBe('test');
  });

  it.each([
    ['true', true],
    ['TRUE', false],
    ['True', false],
    ['1', false],
    ['yes', false],
    [' true', false],
    ['true ', false],
    ['false', false],
    ['', false],
    [undefined, false],
  ])('AI_ROOM_STAGING_ENABLED=%p enables staging: %p, and is never a problem', (value, enabled) => {
    expect(parse(env({ AI_ROOM_STAGING_ENABLED: value })).stagingEnabled).toBe(enabled);
  });

  it('enables staging for exactly the string true (property)', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        expect(parse(env({ AI_ROOM_STAGING_ENABLED: value })).stagingEnabled).toBe(value === 'true');
      }),
    );
  });

  // prettier-ignore
  itReportsEachProblem((vars) => parse(env(vars)), {
    DATABASE_URL: [[undefined, 'is required'], ['', 'is required'], ['mysql://db/x', 'PostgreSQL URL'], ['not a url', 'PostgreSQL URL']],
    VALKEY_URL: [[undefined, 'is required'], ['http://127.0.0.1:6379', 'Redis/Valkey URL']],
    NODE_ENV: [['prod', 'one of development, test, production']],
    QUEUE_SUFFIX: [['a:b', 'letters, digits'], ['x'.repeat(65), 'at most 64']],
    AI_STAGING_QUALITY: [['ultra', 'one of low, medium, high, auto'], ['MEDIUM', 'one of low, medium, high, auto']],
    AI_STAGING_ASPECT_RATIO: [['16:9', 'one of 1:1, 3:2, 2:3'], ['1/1', 'one of 1:1, 3:2, 2:3']],
    AI_STAGING_OUTPUT_FORMAT: [['jpg', 'one of jpeg, png, webp']],
    AI_STAGING_OUTPUT_COMPRESSION: [['-1', 'integer from 0 to 100'], ['101', 'integer from 0 to 100'], ['9.5', 'integer from 0 to 100'], ['1e2', 'integer from 0 to 100'], [' 90', 'integer from 0 to 100']],
    LOG_LEVEL: [['verbose', 'one of fatal, error, warn, info, debug, trace, silent']],
    SENTRY_DSN: [['not a dsn', 'Sentry DSN URL']],
    RELEASE: [[' v1', 'whitespace']],
    AI_DAILY_PURCHASE_CAP: [['0', 'integer >= 1'], ['ten', 'integer >= 1']],
  });

  it.each([
    ['AI_STAGING_QUALITY', 'low'],
    ['AI_STAGING_QUALITY', 'auto'],
    ['AI_STAGING_ASPECT_RATIO', '2:3'],
    ['AI_STAGING_OUTPUT_FORMAT', 'png'],
    ['AI_STAGING_OUTPUT_COMPRESSION', '0'],
    ['AI_STAGING_OUTPUT_COMPRESSION', '100'],
    ['QUEUE_SUFFIX', ''],
    ['QUEUE_SUFFIX', '_ci.7-x'],
    ['VALKEY_URL', 'rediss://user:pw@cache.example.com:6380/0'],
    ['DATABASE_URL', 'postgres://u:p@db.example.com/app?sslmode=require'],
  ])('%s=%p is accepted', (variable, value) => {
    expect(problemsOf(() => parse(env({ [variable]: value })))).toEqual([]);
  });

  it('reports every problem at once, in one error', () => {
    const problems = problemsOf(() =>
      parse(env({ DATABASE_URL: undefined, VALKEY_URL: 'x', AI_STAGING_QUALITY: 'x', AI_STAGING_OUTPUT_COMPRESSION: '200', LOG_LEVEL: 'x' })),
    );
    expect(variablesOf(problems)).toEqual(
      expect.arrayContaining(['DATABASE_URL', 'VALKEY_URL', 'AI_STAGING_QUALITY', 'AI_STAGING_OUTPUT_COMPRESSION', 'LOG_LEVEL']),
    );
    expect(problems).toHaveLength(5);
  });

  it('never puts a value into the message (property)', () => {
    const names = [
      'DATABASE_URL', 'VALKEY_URL', 'NODE_ENV', 'QUEUE_SUFFIX', 'AI_STAGING_QUALITY', 'AI_STAGING_ASPECT_RATIO',
      'AI_STAGING_OUTPUT_FORMAT', 'AI_STAGING_OUTPUT_COMPRESSION', 'LOG_LEVEL', 'SENTRY_DSN', 'AUTH_SECRET',
      'AI_STAGING_LEGACY_ALIAS_SUNSET_AT', 'PORT', 'S3_BUCKET', 'S3_ENDPOINT', 'S3_FORCE_PATH_STYLE',
      'PROVIDER_WEBHOOK_SIGNING_SECRET', 'PROVIDER_API_TOKEN', 'PROVIDER_WEBHOOK_BASE_URL',
      'AI_STAGING_USER_HASH_SECRET', 'AI_STAGING_CONCURRENCY', 'AI_STAGING_COST_MICROUSD_MEDIUM',
    ];
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9:/?=.@-]{6,30}$/), (junk) => {
        const bad: Env = {};
        for (const name of names) bad[name] = `LEAK${junk}`;
        expect(messageOf(() => parse(bad))).not.toContain('LEAK');
      }),
      { numRuns: 50 },
    );
  });
});

describe('secret placement', () => {
  it.each([
    ['web', parseWebEnv, webTestEnv, 'PROVIDER_API_TOKEN', TEST_SECRETS.PROVIDER_API_TOKEN],
    ['api', parseApiEnv, apiTestEnv, 'PROVIDER_API_TOKEN', TEST_SECRETS.PROVIDER_API_TOKEN],
    ['web', parseWebEnv, webTestEnv, 'PROVIDER_WEBHOOK_SIGNING_SECRET', TEST_SECRETS.PROVIDER_WEBHOOK_SIGNING_SECRET],
    ['worker', parseWorkerEnv, workerTestEnv, 'PROVIDER_WEBHOOK_SIGNING_SECRET', TEST_SECRETS.PROVIDER_WEBHOOK_SIGNING_SECRET],
  ] as const)('the %s role refuses %s', (role, parse, env, variable, value) => {
    const message = messageOf(() => parse(env({ [variable]: value })));
    expect(problemsOf(() => parse(env({ [variable]: value })))).toEqual([
      { variable, rule: expect.stringContaining(`must not be set on the ${role}`) },
    ]);
    expect(message).not.toContain(value);
  });

  it('accepts each secret on its own role', () => {
    expect(parseWorkerEnv(workerTestEnv()).providerApiToken).toBe(TEST_SECRETS.PROVIDER_API_TOKEN);
    expect(parseApiEnv(apiTestEnv()).webhookSigningSecret).toBe(TEST_SECRETS.PROVIDER_WEBHOOK_SIGNING_SECRET);
  });

  it('treats an empty value as unset, holding no secret', () => {
    expect(problemsOf(() => parseWebEnv(webTestEnv({ PROVIDER_API_TOKEN: '' })))).toEqual([]);
  });
});
