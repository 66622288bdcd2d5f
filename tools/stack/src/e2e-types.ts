// Shapes shared by the e2e runner (tools/stack) and the Playwright tests (apps/web/e2e), kept
// free of imports so the tests can use them without loading the stack's server code.

/** What the tests need to reach and inspect the stack; passed to Playwright as E2E_STACK. */
export interface E2eStackInfo {
  webUrl: string;
  /** The same build, started with AI_ROOM_STAGING_ENABLED=false. */
  webDisabledUrl: string;
  /** The same build, with its database and Redis unreachable: the public pages during an outage. */
  outageWebUrl: string;
  apiUrl: string;
  simulatorOrigin: string;
  databaseUrl: string;
  valkeyUrl: string;
  queueSuffix: string;
  s3Endpoint: string;
  s3Bucket: string;
  /** Whether apps/worker/src/main.ts existed and a worker was started. */
  workerStarted: boolean;
  /**
   * A second world on its own database and queue suffix whose worker runs with the kill switch
   * off while its web instance accepts submissions: jobs there wait in PROVIDER_DISABLED.
   */
  paused: {
    webUrl: string;
    /** The same world's web with DASHBOARD_POLL_SECONDS=3600: its pages change only by the live stream. */
    pushOnlyWebUrl: string;
    databaseUrl: string;
    /** The world's own provider account: its worker buys nothing there. */
    simulatorOrigin: string;
  };
}

/** The run's generated secrets; passed to Playwright as E2E_SECRETS for the leak scan. */
export interface E2eSecrets {
  AUTH_SECRET: string;
  PROVIDER_API_TOKEN: string;
  PROVIDER_WEBHOOK_SIGNING_SECRET: string;
  AI_STAGING_USER_HASH_SECRET: string;
  S3_SECRET_ACCESS_KEY: string;
  QUEUE_DASHBOARD_PASSWORD: string;
}
