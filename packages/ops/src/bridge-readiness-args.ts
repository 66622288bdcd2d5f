import { existsSync, readFileSync } from 'node:fs';
import type { Env } from '@staging/config/env-reader';
import { UsageError } from './doctor-args';
import { parseEnvFile } from './env-file';
import { LOCAL_HINT, localStackFiles } from './local-stack';
import type { LocalStackFiles } from './local-stack';

export const BRIDGE_READINESS_HELP = `usage: bridge-readiness [--env-file <path>] [--log-file <path> ...] [--clients-canonical] [--product-approved]
       bridge-readiness --local [--clients-canonical] [--product-approved]
       bridge-readiness --help

Reports each condition for removing the legacy style bridge (docs/system.md, "Legacy bridge"):
30 days of submissions and logs without an alias, the legacy queue empty, supported clients
canonical, product approval. The date alone is never enough.

  --env-file F          read DATABASE_URL, VALKEY_URL, QUEUE_SUFFIX and
                        AI_STAGING_LEGACY_ALIAS_SUNSET_AT from F (any role's env file);
                        without it, from the current environment
  --log-file F          a JSON log (one pino line per line) to search for alias use; repeatable
  --local               the stack \`npm start\` runs: its api env file and every service's log
  --clients-canonical   supported client versions all send canonical style names
  --product-approved    product approved the removal
  --help                print this text

Exit status: 0 every condition holds, 1 some do not, 2 usage or configuration error.`;

export type BridgeReadinessCommand =
  | { kind: 'help' }
  | { kind: 'run'; env: Env; logFiles: string[]; clientsCanonical: boolean; productApproved: boolean };

export function parseBridgeReadinessArgs(
  argv: readonly string[],
  currentEnv: Env,
  files: LocalStackFiles = localStackFiles(),
): BridgeReadinessCommand {
  if (argv.includes('--help') || argv.includes('-h')) return { kind: 'help' };
  let env = currentEnv;
  const logFiles: string[] = [];
  let clientsCanonical = false;
  let productApproved = false;
  let local = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = argv[i + 1];
    if (arg === '--env-file' || arg === '--log-file') {
      if (value === undefined) throw new UsageError(`${arg} needs a path`);
      if (arg === '--env-file') env = parseEnvFile(readFileSync(value, 'utf8'));
      else logFiles.push(value);
      i += 1;
    } else if (arg === '--local') local = true;
    else if (arg === '--clients-canonical') clientsCanonical = true;
    else if (arg === '--product-approved') productApproved = true;
    else throw new UsageError(`unknown argument ${arg}`);
  }
  if (local) {
    if (env !== currentEnv || logFiles.length > 0) throw new UsageError('--local replaces --env-file and --log-file');
    const envFile = files.envFile('api');
    if (!existsSync(envFile)) throw new UsageError(`--local: ${envFile} is missing; ${LOCAL_HINT}`);
    env = parseEnvFile(readFileSync(envFile, 'utf8'));
    logFiles.push(...(['api', 'worker', 'web'] as const).map((s) => files.logFile(s)).filter((f) => existsSync(f)));
  }
  return { kind: 'run', env, logFiles, clientsCanonical, productApproved };
}
