import { checkSecretPlacement, readCommon, readSessionRole, readStorage } from './common';
import type { CommonConfig, SessionRoleConfig, StorageConfig } from './common';
import { z } from 'zod';
import { EnvReader } from './env-reader';
import type { Env, EnvRule } from './env-reader';
import { webhookSigningSecretRule } from './rules';

export interface ApiConfig extends CommonConfig, SessionRoleConfig {
  role: 'api';
  /** The api stores uploaded originals, so object storage is required here as on the worker. */
  storage: StorageConfig;
  /** Standard Webhooks secret (whsec_…) verifying provider callbacks; lives on the api only. */
  webhookSigningSecret: string;
  /**
   * Browser origins, besides the api's own host, allowed to send cookie-authenticated
   * mutations (the web app's origin when it calls the api from the browser). API_ALLOWED_ORIGINS,
   * comma-separated; empty by default.
   */
  allowedOrigins: string[];
}

/** Comma-separated list of http(s) origins (scheme, host, optional port; no path). */
function originListRule(): EnvRule<string[]> {
  const message = 'must be a comma-separated list of origins such as https://app.example.com';
  return z
    .string()
    .transform((value) => value.split(',').map((part) => part.trim()).filter((part) => part !== ''))
    .refine(
      (origins) =>
        origins.every((origin) => {
          const url = URL.parse(origin);
          return url !== null && (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === origin.toLowerCase();
        }),
      { error: message },
    );
}

/**
 * Parses the api service's environment.
 * @throws ConfigError listing every problem.
 */
export function parseApiEnv(env: Env): ApiConfig {
  const r = new EnvReader(env, 'api');
  checkSecretPlacement(r);
  return r.finish({
    role: 'api',
    ...readCommon(r),
    ...readSessionRole(r, 4000),
    storage: readStorage(r),
    webhookSigningSecret: r.required('PROVIDER_WEBHOOK_SIGNING_SECRET', webhookSigningSecretRule()),
    allowedOrigins: r.optional('API_ALLOWED_ORIGINS', originListRule(), []),
  });
}
