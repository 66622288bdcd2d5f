// `npm start`: the whole local stack with demo data. Postgres and Redis come from the machine (or
// DATABASE_URL/VALKEY_URL), s3rver and the provider simulator run in this process, and the three
// apps run as child processes, each restarted when it exits (supervise.ts). Ctrl-C stops all of it.
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDb } from '@staging/db/client';
import { migrate } from '@staging/db/migrate';
import { createObjectStorage } from '@staging/platform/storage';
import { supervise } from './supervise';
import type { SupervisedProcess } from './supervise';
import { appEnvs } from './app-env';
import { ensureDatabase, ensureLocalServices } from './local-services';
import { loadOrCreateLocalSecrets } from './local-secrets';
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
  const env = { ...process.env, ...roleEnv };
  const log = createWriteStream(localLogFile(name), { flags: 'w' });
  const prefix = (chunk: Buffer) =>
    chunk
      .toString()
      .split('\n')
      .filter(Boolean)
      .map((line) => `[${name}] ${line}`)
      .join('\n');
  const spawnChild = (): ChildProcess => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.pipe(log, { end: false });
    child.stdout?.on('data', (chunk: Buffer) => console.log(prefix(chunk)));
    child.stderr?.on('data', (chunk: Buffer) => console.error(prefix(chunk)));
    return child;
  };
  services.push(supervise({ name, start: spawnChild, log: (line) => console.error(line) }));
}

async function waitForHealth(name: string, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  throw new Error(`${name} did not answer ${url} within ${timeoutMs / 1000}s`);
}

async function main(): Promise<void> {
  const secrets = loadOrCreateLocalSecrets(path.join(repoRoot, '.env.local'));
  const { adminDatabaseUrl, valkeyUrl } = await ensureLocalServices(process.env);
  const databaseUrl = process.env.DATABASE_URL ?? (await ensureDatabase(adminDatabaseUrl, 'staging_dev'));
  await migrate({ databaseUrl, log: (line) => console.log(`[db] ${line}`) });

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

  // Only what the stack decides: these are also written to .stack/env/<role>.env for the doctor.
  const common: Record<string, string> = {
    NODE_ENV: 'development',
    DATABASE_URL: databaseUrl,
    VALKEY_URL: valkeyUrl,
    QUEUE_SUFFIX: process.env.QUEUE_SUFFIX ?? '',
    AI_ROOM_STAGING_ENABLED: process.env.AI_ROOM_STAGING_ENABLED ?? 'true',
    AI_STAGING_LEGACY_ALIAS_SUNSET_AT: process.env.AI_STAGING_LEGACY_ALIAS_SUNSET_AT ?? '2027-06-30T23:59:59.999Z',
    // The web shows the estimate before a submission and the worker records it per attempt.
    ...localProducerEnv(process.env),
    ...storageEnv,
  };
  const envs = appEnvs({
    common,
    secrets: { ...secrets, PROVIDER_API_TOKEN: secrets.SIM_TOKEN },
    webOrigin: `http://localhost:${ports.web}`,
    apiUrl: `http://127.0.0.1:${ports.api}`,
    simulatorUrl: simulator.url,
  });
  const tsx = path.join(repoRoot, 'node_modules', '.bin', 'tsx');

  const apiEnv = { ...envs.api, PORT: String(ports.api) };
  const workerEnv = {
    ...envs.worker,
    PORT: String(ports.worker),
    AI_STAGING_PRICING_VERSION: process.env.AI_STAGING_PRICING_VERSION ?? LOCAL_PRICING_VERSION,
  };
  const webEnv = { ...envs.web, PORT: String(ports.web) };
  writeLocalEnvFile('api', apiEnv);
  writeLocalEnvFile('worker', workerEnv);
  writeLocalEnvFile('web', webEnv);
  startService('api', [tsx, 'src/main.ts'], path.join(repoRoot, 'apps/api'), apiEnv);
  startService('worker', [tsx, 'src/main.ts'], path.join(repoRoot, 'apps/worker'), workerEnv);
  const next = path.join(repoRoot, 'apps/web/node_modules/.bin/next');
  startService('web', [next, 'dev', '--port', String(ports.web)], path.join(repoRoot, 'apps/web'), webEnv);

  // Only hang guards: a first start compiles everything, and a busy machine makes that slow.
  await Promise.all([
    waitForHealth('api', `http://127.0.0.1:${ports.api}/healthz`, 600_000),
    waitForHealth('worker', `http://127.0.0.1:${ports.worker}/healthz`, 600_000),
    waitForHealth('web', `http://127.0.0.1:${ports.web}/healthz`, 600_000),
  ]);

  console.log(`
Stack is up.
  Agent dashboard   http://localhost:${ports.web}
  API               http://localhost:${ports.api}   (health: /healthz, readiness: /readyz)
  Queue dashboard   http://localhost:${ports.worker}/admin/queues   (user admin, password ${secrets.QUEUE_DASHBOARD_PASSWORD})
  Provider sim      ${simulator.url}
  Object storage    ${s3.endpoint}   (bucket ${storageEnv.S3_BUCKET})

Env files per role (for \`pnpm run doctor --local\`): .stack/env/{web,api,worker}.env
Raw JSON logs per service (for \`pnpm run bridge-readiness --local\`): .stack/logs/{web,api,worker}.log

Demo logins (password "${DEMO_PASSWORD}"):
${DEMO_LOGINS.map((login) => `  ${login.email.padEnd(18)} ${login.role.toLowerCase()}`).join('\n')}

Press Ctrl-C to stop everything.`);

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

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  for (const service of services) void service.stop();
  process.exit(1);
});
