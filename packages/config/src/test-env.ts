/**
 * Complete, valid environments per role for tests (here and in other packages that need a typed
 * config without a real deployment). Secret values are recognizable so tests can assert they
 * never appear in output.
 */
import type { Env } from './env-reader';

export const TEST_SECRETS = {
  AUTH_SECRET: 'auth-secret-for-tests-0123456789abcdef',
  PROVIDER_API_TOKEN: 'r8_testtokenVALUEdonotleak',
  PROVIDER_WEBHOOK_SIGNING_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  AI_STAGING_USER_HASH_SECRET: '9f'.repeat(32),
  S3_SECRET_ACCESS_KEY: 's3-secret-VALUE-donotleak',
  QUEUE_DASHBOARD_PASSWORD: 'dashboard-password-VALUE',
} as const;

const COMMON: Env = {
  NODE_ENV: 'test',
  DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/staging_test',
  VALKEY_URL: 'redis://127.0.0.1:6379',
  QUEUE_SUFFIX: '-test',
  AI_ROOM_STAGING_ENABLED: 'true',
};

// Placeholder origins point at the discard port, where nothing listens: a test that forgets to
// start its own server fails with ECONNREFUSED instead of reaching a running development stack.
const UNREACHABLE_ORIGIN = 'http://127.0.0.1:9';

const STORAGE: Env = {
  S3_ENDPOINT: UNREACHABLE_ORIGIN,
  S3_ACCESS_KEY_ID: 'S3RVER',
  S3_SECRET_ACCESS_KEY: TEST_SECRETS.S3_SECRET_ACCESS_KEY,
  S3_BUCKET: 'staging-test',
};

const WEB: Env = {
  AI_STAGING_LEGACY_ALIAS_SUNSET_AT: '2027-01-31T23:59:59.999Z',
  AUTH_SECRET: TEST_SECRETS.AUTH_SECRET,
  API_ORIGIN: UNREACHABLE_ORIGIN,
};

/** A role's environment: its fragments in order, then the caller's overrides, in a fresh object. */
function roleEnv(...fragments: readonly Env[]): (overrides?: Env) => Env {
  return (overrides = {}) => Object.assign({}, ...fragments, overrides);
}

export const webTestEnv = roleEnv(COMMON, WEB);

export const apiTestEnv = roleEnv(COMMON, WEB, STORAGE, {
  PROVIDER_WEBHOOK_SIGNING_SECRET: TEST_SECRETS.PROVIDER_WEBHOOK_SIGNING_SECRET,
});

export const workerTestEnv = roleEnv(COMMON, STORAGE, {
  PROVIDER_API_TOKEN: TEST_SECRETS.PROVIDER_API_TOKEN,
  PROVIDER_WEBHOOK_BASE_URL: 'https://staging-api.example.com',
  AI_STAGING_USER_HASH_SECRET: TEST_SECRETS.AI_STAGING_USER_HASH_SECRET,
});
