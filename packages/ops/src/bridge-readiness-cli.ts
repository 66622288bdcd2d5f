// `pnpm bridge-readiness [--env-file api.env] [--log-file app.log ...] [--clients-canonical] [--product-approved]`
// Reads DATABASE_URL, VALKEY_URL, QUEUE_SUFFIX and AI_STAGING_LEGACY_ALIAS_SUNSET_AT from the env
// file (any role's) or the current environment. Exits 0 only when every removal condition holds,
// 1 when not, 2 on a usage or configuration error.
import { readFileSync } from 'node:fs';
import { EnvReader } from '@staging/config/env-reader';
import type { Env } from '@staging/config/env-reader';
import { ConfigError } from '@staging/config/config-error';
import { queueSuffixRule, urlRule, utcInstantRule } from '@staging/config/rules';
import { createDb } from '@staging/db/client';
import { createRedis, waitForRedis } from '@staging/platform/queues';
import { checkBridgeReadiness, formatReadinessReport } from './bridge-readiness';
import { parseEnvFile } from './env-file';

const USAGE =
  'usage: bridge-readiness [--env-file <path>] [--log-file <path> ...] [--clients-canonical] [--product-approved]';

function usage(text: string): never {
  process.stderr.write(`${text}\n${USAGE}\n`);
  process.exit(2);
}

const argv = process.argv.slice(2);
// eslint-disable-next-line no-restricted-properties -- a CLI entry point; the env is parsed by @staging/config
let env: Env = process.env;
const logFiles: string[] = [];
let clientsCanonical = false;
let productApproved = false;
for (let i = 0; i < argv.length; i += 1) {
  const arg = argv[i];
  const value = argv[i + 1];
  if (arg === '--env-file' || arg === '--log-file') {
    if (value === undefined) usage(`${arg} needs a path`);
    if (arg === '--env-file') env = parseEnvFile(readFileSync(value, 'utf8'));
    else logFiles.push(value);
    i += 1;
  } else if (arg === '--clients-canonical') clientsCanonical = true;
  else if (arg === '--product-approved') productApproved = true;
  else usage(`unknown argument ${arg}`);
}

const r = new EnvReader(env, 'api');
let settings: { databaseUrl: string; valkeyUrl: string; queueSuffix: string; sunsetAt: Date | null };
try {
  settings = r.finish({
    databaseUrl: r.required('DATABASE_URL', urlRule(['postgres', 'postgresql'], 'PostgreSQL')),
    valkeyUrl: r.required('VALKEY_URL', urlRule(['redis', 'rediss'], 'Redis/Valkey')),
    queueSuffix: r.optional('QUEUE_SUFFIX', queueSuffixRule(), ''),
    sunsetAt: r.maybe('AI_STAGING_LEGACY_ALIAS_SUNSET_AT', utcInstantRule()) ?? null,
  });
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  usage(error.message);
}

const db = createDb(settings.databaseUrl, { maxConnections: 1 });
const redis = createRedis(settings.valkeyUrl, { role: 'producer', connectionName: 'bridge-readiness' });
redis.on('error', () => undefined);
let exitCode: number;
try {
  await waitForRedis(redis);
  const report = await checkBridgeReadiness({
    db,
    redis,
    queueSuffix: settings.queueSuffix,
    now: new Date(),
    sunsetAt: settings.sunsetAt,
    logFiles,
    clientsCanonical,
    productApproved,
  });
  process.stdout.write(`${formatReadinessReport(report)}\n`);
  exitCode = report.ready ? 0 : 1;
} catch (error) {
  process.stderr.write(
    `bridge-readiness could not run: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  exitCode = 2;
} finally {
  redis.disconnect();
  await db.$disconnect();
}
process.exit(exitCode);
