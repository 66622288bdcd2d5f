// `pnpm run bridge-readiness --help` for the options. Exits 0 only when every removal condition
// holds, 1 when not, 2 on a usage or configuration error.
import { EnvReader } from '@staging/config/env-reader';
import { ConfigError } from '@staging/config/config-error';
import { queueSuffixRule, urlRule, utcInstantRule } from '@staging/config/rules';
import { createDb } from '@staging/db/client';
import { createRedis, waitForRedis } from '@staging/platform/queues';
import { BRIDGE_READINESS_HELP, parseBridgeReadinessArgs } from './bridge-readiness-args';
import type { BridgeReadinessCommand } from './bridge-readiness-args';
import { checkBridgeReadiness, formatReadinessReport } from './bridge-readiness';
import { UsageError } from './cli-parse';

function usage(text: string): never {
  process.stderr.write(`${text}\n\n${BRIDGE_READINESS_HELP}\n`);
  process.exit(2);
}

let command: BridgeReadinessCommand;
try {
  // eslint-disable-next-line no-restricted-properties -- a CLI entry point; the env is parsed by @staging/config
  command = parseBridgeReadinessArgs(process.argv.slice(2), process.env);
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  usage(error.message);
}
if (command.kind === 'help') {
  process.stdout.write(`${BRIDGE_READINESS_HELP}\n`);
  process.exit(0);
}
const { env, logFiles, clientsCanonical, productApproved } = command;

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
