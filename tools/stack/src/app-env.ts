// The api's, the worker's and the web app's environments over one stack, as `npm start` and the
// browser tests run the three apps: each gets what the stack shares plus the secrets and origins
// its own role reads, so a secret of one role never reaches another.

export interface AppSecrets {
  AUTH_SECRET: string;
  PROVIDER_API_TOKEN: string;
  PROVIDER_WEBHOOK_SIGNING_SECRET: string;
  AI_STAGING_USER_HASH_SECRET: string;
  QUEUE_DASHBOARD_PASSWORD: string;
}

export interface AppEnvOptions<V extends string | undefined> {
  /** What every app reads: database, queue store and namespace, storage, feature settings. */
  common: Record<string, V>;
  secrets: AppSecrets;
  /** The web app's origin (WEB_ORIGIN). */
  webOrigin: string;
  /** The api as the worker (webhooks) and the web app (server-side calls) reach it. */
  apiUrl: string;
  /** The provider's API base (PROVIDER_API_BASE_URL). */
  simulatorUrl: string;
}

/** Each app's environment besides its PORT and the caller's own settings. */
export function appEnvs<V extends string | undefined>(
  options: AppEnvOptions<V>,
): Record<'api' | 'worker' | 'web', Record<string, V | string>> {
  const { common, secrets } = options;
  const producer = { ...common, AUTH_SECRET: secrets.AUTH_SECRET, WEB_ORIGIN: options.webOrigin };
  return {
    api: { ...producer, PROVIDER_WEBHOOK_SIGNING_SECRET: secrets.PROVIDER_WEBHOOK_SIGNING_SECRET },
    worker: {
      ...common,
      PROVIDER_API_TOKEN: secrets.PROVIDER_API_TOKEN,
      PROVIDER_API_BASE_URL: options.simulatorUrl,
      PROVIDER_WEBHOOK_BASE_URL: options.apiUrl,
      ALLOW_INSECURE_WEBHOOK_BASE_URL: 'true',
      AI_STAGING_USER_HASH_SECRET: secrets.AI_STAGING_USER_HASH_SECRET,
      QUEUE_DASHBOARD_USER: 'admin',
      QUEUE_DASHBOARD_PASSWORD: secrets.QUEUE_DASHBOARD_PASSWORD,
    },
    web: { ...producer, API_ORIGIN: options.apiUrl },
  };
}
