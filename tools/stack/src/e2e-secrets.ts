// Fresh secrets for one browser-test run. They are generated (never fixed strings) and the run
// checks that none of them appears in the web build output or in any page the browser receives.
import { randomBytes } from 'node:crypto';
import type { E2eSecrets } from './e2e-types';

export const E2E_SECRET_NAMES = [
  'AUTH_SECRET',
  'PROVIDER_API_TOKEN',
  'PROVIDER_WEBHOOK_SIGNING_SECRET',
  'AI_STAGING_USER_HASH_SECRET',
  'S3_SECRET_ACCESS_KEY',
  'QUEUE_DASHBOARD_PASSWORD',
] as const satisfies readonly (keyof E2eSecrets)[];

export function generateE2eSecrets(): E2eSecrets {
  return {
    AUTH_SECRET: `e2e-auth-${randomBytes(24).toString('base64url')}`,
    PROVIDER_API_TOKEN: `r8_e2e_${randomBytes(16).toString('hex')}`,
    PROVIDER_WEBHOOK_SIGNING_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
    AI_STAGING_USER_HASH_SECRET: randomBytes(32).toString('hex'),
    S3_SECRET_ACCESS_KEY: `e2e-s3-${randomBytes(16).toString('hex')}`,
    QUEUE_DASHBOARD_PASSWORD: `e2e-dash-${randomBytes(12).toString('base64url')}`,
  };
}
