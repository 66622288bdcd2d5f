import { parseApiEnv } from './api';
import { itReportsEachProblem, problemsOf } from './test-problems';
import { apiTestEnv } from './test-env';
import { parseWorkerEnv } from './worker';
import { workerTestEnv } from './test-env';

describe('parseApiEnv', () => {
  it('parses a complete environment', () => {
    const config = parseApiEnv(apiTestEnv());
    expect(config.role).toBe('api');
    expect(config.port).toBe(4000);
    expect(config.webhookSigningSecret).toBe('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    expect(config.legacyAliasSunsetAt.toISOString()).toBe('2027-01-31T23:59:59.999Z');
    expect(config.storage.bucket).toBe('staging-test');
    expect(config.providerModel).toBe('openai/gpt-image-2');
    expect(config.trustedProxyHops).toBe(0);
  });

  it('reads TRUSTED_PROXY_HOPS; 0 is allowed in production (the api sees its socket peer)', () => {
    expect(parseApiEnv(apiTestEnv({ TRUSTED_PROXY_HOPS: '2' })).trustedProxyHops).toBe(2);
    expect(parseApiEnv(apiTestEnv({ NODE_ENV: 'production' })).trustedProxyHops).toBe(0);
    expect(problemsOf(() => parseApiEnv(apiTestEnv({ TRUSTED_PROXY_HOPS: '-1' })))).toEqual([
      { variable: 'TRUSTED_PROXY_HOPS', rule: expect.stringContaining('integer') },
    ]);
  });

  // prettier-ignore
  itReportsEachProblem((vars) => parseApiEnv(apiTestEnv(vars)), {
    PROVIDER_WEBHOOK_SIGNING_SECRET: [[undefined, 'is required'], ['MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'must start with whsec_'], ['whsec_', 'standard base64 of at least 24 bytes'], ['whsec_MfKQ9r8GKYqrTwjUPD8I!!!!', 'standard base64'], ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS', 'standard base64'], ['whsec_YWJjZGVmZ2hpamtsbW5vcA==', 'at least 24 bytes']],
    AUTH_SECRET: [[undefined, 'is required']],
    AI_STAGING_LEGACY_ALIAS_SUNSET_AT: [[undefined, 'is required']],
    S3_BUCKET: [[undefined, 'is required']],
    S3_ACCESS_KEY_ID: [[undefined, 'is required']],
    S3_SECRET_ACCESS_KEY: [['', 'is required']],
    PROVIDER_MODEL: [['openai', 'owner/name']],
  });

  it('accepts a signing secret with padding', () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(parseApiEnv(apiTestEnv({ PROVIDER_WEBHOOK_SIGNING_SECRET: secret })).webhookSigningSecret).toBe(secret);
  });
});

// Object storage is required on the api (uploads) and the worker (outputs, deletion).
describe.each([
  ['api', (env: Record<string, string | undefined>) => parseApiEnv(apiTestEnv(env))],
  ['worker', (env: Record<string, string | undefined>) => parseWorkerEnv(workerTestEnv(env))],
] as const)('storage on the %s role', (_role, parse) => {
  it('defaults the region and uses path-style addressing for a custom endpoint', () => {
    expect(parse({}).storage).toEqual({
      endpoint: 'http://127.0.0.1:9',
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 's3-secret-VALUE-donotleak',
      bucket: 'staging-test',
      forcePathStyle: true,
    });
  });

  it('uses virtual-hosted addressing for AWS itself (no endpoint)', () => {
    const storage = parse({ S3_ENDPOINT: undefined, S3_REGION: 'eu-central-1' }).storage;
    expect(storage.endpoint).toBeUndefined();
    expect(storage.region).toBe('eu-central-1');
    expect(storage.forcePathStyle).toBe(false);
  });

  it.each([
    ['true', true],
    ['false', false],
  ])('honours S3_FORCE_PATH_STYLE=%s', (value, expected) => {
    expect(parse({ S3_FORCE_PATH_STYLE: value }).storage.forcePathStyle).toBe(expected);
  });

  it.each(['abc', 'my.bucket-1', 'a'.repeat(63), '0bucket9'])('accepts the bucket name %p', (bucket) => {
    expect(parse({ S3_BUCKET: bucket }).storage.bucket).toBe(bucket);
  });

  it.each([
    ['S3_BUCKET', 'ab'],
    ['S3_BUCKET', 'a'.repeat(64)],
    ['S3_BUCKET', 'Staging'],
    ['S3_BUCKET', 'my_bucket'],
    ['S3_BUCKET', '-bucket'],
    ['S3_BUCKET', 'bucket-'],
    ['S3_BUCKET', 'my..bucket'],
    ['S3_BUCKET', '192.168.1.10'],
    ['S3_BUCKET', 'xn--bucket'],
    ['S3_BUCKET', 'bucket-s3alias'],
    ['S3_FORCE_PATH_STYLE', 'yes'],
    ['S3_ENDPOINT', 'ftp://files.example.com'],
    ['S3_REGION', ' us-east-1'],
  ])('%s=%p is a problem', (variable, value) => {
    expect(problemsOf(() => parse({ [variable]: value })).map((p) => p.variable)).toEqual([variable]);
  });
});
