import { itReportsEachProblem, problemsOf } from './test-problems';
import { webTestEnv } from './test-env';
import { parseWebEnv } from './web';

describe('parseWebEnv', () => {
  it('parses a complete environment', () => {
    const config = parseWebEnv(webTestEnv());
    expect(config.role).toBe('web');
    expect(config.port).toBe(3000);
    expect(config.legacyAliasSunsetAt.toISOString()).toBe('2027-01-31T23:59:59.999Z');
    expect(config.authSecret).toBe('auth-secret-for-tests-0123456789abcdef');
    expect(config.storage).toBeUndefined();
    expect(config.providerModel).toBe('openai/gpt-image-2');
  });

  it('reads PROVIDER_MODEL with the worker rule, since producers persist it with each job', () => {
    expect(parseWebEnv(webTestEnv({ PROVIDER_MODEL: 'openai/gpt-image-3' })).providerModel).toBe('openai/gpt-image-3');
    expect(problemsOf(() => parseWebEnv(webTestEnv({ PROVIDER_MODEL: 'gpt-image-2' })))).toEqual([
      { variable: 'PROVIDER_MODEL', rule: expect.stringContaining('owner/name') },
    ]);
  });

  it('reads the staging prices for the estimate shown before a submission, none when unset', () => {
    expect(parseWebEnv(webTestEnv()).stagingCostMicrousd).toEqual({});
    expect(parseWebEnv(webTestEnv({ AI_STAGING_COST_MICROUSD_MEDIUM: '42000' })).stagingCostMicrousd).toEqual({ medium: 42_000 });
    expect(problemsOf(() => parseWebEnv(webTestEnv({ AI_STAGING_COST_MICROUSD_MEDIUM: '0.04' })))).toEqual([
      { variable: 'AI_STAGING_COST_MICROUSD_MEDIUM', rule: expect.stringContaining('integer') },
    ]);
  });

  it('reads API_ORIGIN without a trailing slash and requires it', () => {
    expect(parseWebEnv(webTestEnv({ API_ORIGIN: 'http://api.internal:4000/' })).apiOrigin).toBe('http://api.internal:4000');
    expect(problemsOf(() => parseWebEnv(webTestEnv({ API_ORIGIN: undefined })))).toEqual([
      { variable: 'API_ORIGIN', rule: expect.stringContaining('required') },
    ]);
  });

  it('reads TRUSTED_PROXY_HOPS, 0 by default, and requires at least 1 in production', () => {
    expect(parseWebEnv(webTestEnv()).trustedProxyHops).toBe(0);
    expect(parseWebEnv(webTestEnv({ TRUSTED_PROXY_HOPS: '2' })).trustedProxyHops).toBe(2);
    expect(parseWebEnv(webTestEnv({ NODE_ENV: 'production', TRUSTED_PROXY_HOPS: '1' })).trustedProxyHops).toBe(1);
    for (const hops of [undefined, '0']) {
      expect(problemsOf(() => parseWebEnv(webTestEnv({ NODE_ENV: 'production', TRUSTED_PROXY_HOPS: hops })))).toEqual([
        { variable: 'TRUSTED_PROXY_HOPS', rule: expect.stringContaining('at least 1 in production') },
      ]);
    }
    for (const hops of ['-1', '1.5', 'one', '11']) {
      expect(problemsOf(() => parseWebEnv(webTestEnv({ TRUSTED_PROXY_HOPS: hops })))).toEqual([
        { variable: 'TRUSTED_PROXY_HOPS', rule: expect.stringContaining('integer') },
      ]);
    }
  });

  it('reads DASHBOARD_POLL_SECONDS, 15 by default, from 1 to 3600', () => {
    expect(parseWebEnv(webTestEnv()).dashboardPollSeconds).toBe(15);
    expect(parseWebEnv(webTestEnv({ DASHBOARD_POLL_SECONDS: '3600' })).dashboardPollSeconds).toBe(3_600);
    for (const seconds of ['0', '3601', '1.5', 'soon']) {
      expect(problemsOf(() => parseWebEnv(webTestEnv({ DASHBOARD_POLL_SECONDS: seconds })))).toEqual([
        { variable: 'DASHBOARD_POLL_SECONDS', rule: expect.stringContaining('integer from 1 to 3600') },
      ]);
    }
  });

  it('reads PORT', () => {
    expect(parseWebEnv(webTestEnv({ PORT: '8080' })).port).toBe(8080);
  });

  // prettier-ignore
  itReportsEachProblem((vars) => parseWebEnv(webTestEnv(vars)), {
    AI_STAGING_LEGACY_ALIAS_SUNSET_AT: [[undefined, 'is required'], ['2027-01-31', 'ISO 8601 UTC instant'], ['2027-01-31T23:59:59', 'ISO 8601 UTC instant'], ['2027-01-31T23:59:59+00:00', 'ISO 8601 UTC instant'], ['2027-01-31T23:59:59.999z', 'ISO 8601 UTC instant'], ['2027-01-31 23:59:59Z', 'ISO 8601 UTC instant'], ['2027-02-30T00:00:00Z', 'ISO 8601 UTC instant'], ['2027-01-31T24:00:00Z', 'ISO 8601 UTC instant'], ['Sun Jan 31 2027', 'ISO 8601 UTC instant']],
    AUTH_SECRET: [[undefined, 'is required'], ['a'.repeat(31), 'at least 32 characters'], [`${'a'.repeat(32)} b`, 'whitespace']],
    PORT: [['-1', 'integer from 0 to 65535'], ['65536', 'integer from 0 to 65535'], ['http', 'integer from 0 to 65535']],
  });

  it.each([
    ['2027-01-31T23:59:59Z', '2027-01-31T23:59:59.000Z'],
    ['2027-01-31T23:59:59.9Z', '2027-01-31T23:59:59.900Z'],
    ['2028-02-29T12:00:00.000Z', '2028-02-29T12:00:00.000Z'],
  ])('accepts the sunset instant %s', (value, iso) => {
    expect(parseWebEnv(webTestEnv({ AI_STAGING_LEGACY_ALIAS_SUNSET_AT: value })).legacyAliasSunsetAt.toISOString()).toBe(iso);
  });

  it('accepts an AUTH_SECRET of exactly 32 characters', () => {
    expect(problemsOf(() => parseWebEnv(webTestEnv({ AUTH_SECRET: 'a'.repeat(32) })))).toEqual([]);
  });

  it('parses storage when S3 variables are given, with the same rules as the other roles', () => {
    const env = webTestEnv({ S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', S3_BUCKET: 'web-bucket' });
    expect(parseWebEnv(env).storage).toEqual({
      region: 'us-east-1',
      accessKeyId: 'k',
      secretAccessKey: 's',
      bucket: 'web-bucket',
      forcePathStyle: false,
    });
    expect(problemsOf(() => parseWebEnv(webTestEnv({ S3_BUCKET: 'web-bucket' })))).toEqual([
      { variable: 'S3_ACCESS_KEY_ID', rule: 'is required' },
      { variable: 'S3_SECRET_ACCESS_KEY', rule: 'is required' },
    ]);
  });
});
