// `npm start`: the whole local stack with demo data. Postgres and Redis come from the machine (or
// DATABASE_URL/VALKEY_URL), s3rver and the provider simulator run in this process, and the three
// apps run as child processes, each restarted when it exits (supervise.ts). Ctrl-C stops all of it.
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { createDb } from '@staging/db/client';
import { migrate } from '@staging/db/migrate';
import { createObjectStorage } from '@staging/platform/storage';
import type { ObjectStorage } from '@staging/platform/storage';
import { supervise } from './supervise';
import type { SupervisedProcess } from './supervise';
import { appEnvs } from './app-env';
import { startChildApp, waitForUrl } from './child-app';
import { ensureDatabase, ensureLocalServices } from './local-services';
import { loadOrCreateLocalSecrets } from './local-secrets';
import type { LocalSecrets } from './local-secrets';
import { localLogFile, localS3Dir, writeLocalEnvFile } from './local-stack-files';
import { LOCAL_PRICING_VERSION, localProducerEnv } from './local-stack-producer';
import { repoRoot } from './paths';
import { DEMO_LOGINS, DEMO_PASSWORD, seedDemoData } from './seed';
import { stackBuilder } from './stack-builder';

const ports = {
  web: Number(process.env.WEB_PORT ?? 3000),
  api: Number(process.env.API_PORT ?? 4000),
  worker: Number(process.env.WORKER_PORT ?? 4100),
  simulator: Number(process.env.SIM_PORT ?? 4200),
  s3: Number(process.env.S3_PORT ?? 4300),
};

const stack = stackBuilder();
const services: SupervisedProcess[] = [];

/**
 * Runs one app with the machine's environment plus `roleEnv`, restarted whenever it exits while
 * the stack is not stopping. Its output goes to the terminal with a `[name]` prefix, and unprefixed
 * to .stack/logs/<name>.log (every run of it), where JSON-reading tools (bridge-readiness --local)
 * find whole pino lines.
 */
function startService(name: 'web' | 'api' | 'worker', [command, ...args]: [string, ...string[]], cwd: string, roleEnv: Record<string, string>): void {
  const log = createWriteStream(localLogFile(name), { flags: 'w' });
  const start = () => {
    const app = startChildApp({ name, command, args, cwd, env: { ...process.env, ...roleEnv }, terminal: 'prefixed' });
    app.process.stdout.pipe(log, { end: false });
    return app.process;
  };
  services.push(supervise({ name, start, log: (line) => console.error(line) }));
}

/** s3rver on its fixed port and directory, with the local bucket in place. */
async function startStorage(): Promise<{ storage: ObjectStorage; storageEnv: Record<string, string> }> {
  const s3 = await stack.s3rver({ port: ports.s3, directory: localS3Dir() });
  const storageEnv = {
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_BUCKET: 'staging-local',
  };
  const storage = createObjectStorage({
    endpoint: storageEnv.S3_ENDPOINT,
    region: storageEnv.S3_REGION,
    accessKeyId: storageEnv.S3_ACCESS_KEY_ID,
    secretAccessKey: storageEnv.S3_SECRET_ACCESS_KEY,
    bucket: storageEnv.S3_BUCKET,
    forcePathStyle: true,
  });
  await storage.ensureBucket();
  return { storage, storageEnv };
}

/** Each app's environment; also written to .stack/env/<role>.env for the doctor. */
function serviceEnvs(secrets: LocalSecrets, shared: { databaseUrl: string; valkeyUrl: string; simulatorUrl: string; storageEnv: Record<string, string> }) {
  // Only what the stack decides.
  const common: Record<string, string> = {
    NODE_ENV: 'development',
    DATABASE_URL: shared.databaseUrl,
    VALKEY_URL: shared.valkeyUrl,
    QUEUE_SUFFIX: process.env.QUEUE_SUFFIX ?? '',
    AI_ROOM_STAGING_ENABLED: process.env.AI_ROOM_STAGING_ENABLED ?? 'true',
    AI_STAGING_LEGACY_ALIAS_SUNSET_AT: process.env.AI_STAGING_LEGACY_ALIAS_SUNSET_AT ?? '2027-06-30T23:59:59.999Z',
    // The web shows the estimate before a submission and the worker records it per attempt.
    ...localProducerEnv(process.env),
    ...shared.storageEnv,
  };
  const envs = appEnvs({
    common,
    secrets: { ...secrets, PROVIDER_API_TOKEN: secrets.SIM_TOKEN },
    webOrigin: `http://localhost:${ports.web}`,
    apiUrl: `http://127.0.0.1:${ports.api}`,
    simulatorUrl: shared.simulatorUrl,
  });
  const roles = {
    api: { ...envs.api, PORT: String(ports.api) },
    worker: { ...envs.worker, PORT: String(ports.worker), AI_STAGING_PRICING_VERSION: process.env.AI_STAGING_PRICING_VERSION ?? LOCAL_PRICING_VERSION },
    web: { ...envs.web, PORT: String(ports.web) },
  };
  for (const role of ['api', 'worker', 'web'] as const) writeLocalEnvFile(role, roles[role]);
  return roles;
}

function startServices(envs: ReturnType<typeof serviceEnvs>): Promise<unknown> {
  const tsx = path.join(repoRoot, 'node_modules', '.bin', 'tsx');
  startService('api', [tsx, 'src/main.ts'], path.join(repoRoot, 'apps/api'), envs.api);
  startService('worker', [tsx, 'src/main.ts'], path.join(repoRoot, 'apps/worker'), envs.worker);
  const next = path.join(repoRoot, 'apps/web/node_modules/.bin/next');
  startService('web', [next, 'dev', '--port', String(ports.web)], path.join(repoRoot, 'apps/web'), envs.web);
  // Only hang guards: a first start compiles everything, and a busy machine makes that slow. A
  // service that exits meanwhile is restarted, so the wait outlives any one run of it.
  return Promise.all(
    (['api', 'worker', 'web'] as const).map((name) => waitForUrl(`http://127.0.0.1:${ports[name]}/healthz`, { name, timeoutMs: 600_000, intervalMs: 500 })),
  );
}

function printUrls(secrets: LocalSecrets, simulatorUrl: string, storageEnv: Record<string, string>): void {
  console.log(`
Stack is up.
  Agent dashboard   http://localhost:${ports.web}
  API               http://localhost:${ports.api}   (health: /healthz, readiness: /readyz)
  Queue dashboard   http://localhost:${ports.worker}/admin/queues   (user admin, password ${secrets.QUEUE_DASHBOARD_PASSWORD})
  Provider sim      ${simulatorUrl}
  Object storage    ${storageEnv.S3_ENDPOINT}   (bucket ${storageEnv.S3_BUCKET})

Env files per role (for \`pnpm run doctor --local\`): .stack/env/{web,api,worker}.env
Raw JSON logs per service (for \`pnpm run bridge-readiness --local\`): .stack/logs/{web,api,worker}.log

Demo logins (password "${DEMO_PASSWORD}"):
${DEMO_LOGINS.map((login) => `  ${login.email.padEnd(18)} ${login.role.toLowerCase()}`).join('\n')}

Press Ctrl-C to stop everything.`);
}

function stopOnSignals(): void {
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping the stack …');
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

async function main(): Promise<void> {
  const secrets = loadOrCreateLocalSecrets(path.join(repoRoot, '.env.local'));
  const { adminDatabaseUrl, valkeyUrl } = await ensureLocalServices(process.env);
  const databaseUrl = process.env.DATABASE_URL ?? (await ensureDatabase(adminDatabaseUrl, 'staging_dev'));
  await migrate({ databaseUrl, log: (line) => console.log(`[db] ${line}`) });
  const { storage, storageEnv } = await startStorage();
  const simulator = await stack.simulator({
    port: ports.simulator,
    token: secrets.SIM_TOKEN,
    webhookSigningSecret: secrets.PROVIDER_WEBHOOK_SIGNING_SECRET,
  });
  stack.defer(() => Promise.all(services.map((service) => service.stop())));

  const db = createDb(databaseUrl);
  const seeded = await seedDemoData(db, storage, process.env.NODE_ENV);
  await db.$disconnect();
  console.log(seeded ? '[db] demo data seeded' : '[db] demo data already present');

  await startServices(serviceEnvs(secrets, { databaseUrl, valkeyUrl, simulatorUrl: simulator.url, storageEnv }));
  printUrls(secrets, simulator.url, storageEnv);
  stopOnSignals();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  for (const service of services) void service.stop();
  process.exit(1);
});
