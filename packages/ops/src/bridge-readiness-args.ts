import { existsSync } from 'node:fs';
import type { Env } from '@staging/config/env-reader';
import { UsageError, parseCommandLine, readEnvFile, readLocalEnvFile } from './cli-parse';
import { localStackFiles } from './local-stack';
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
  const { values } = parseCommandLine(argv, {
    'env-file': { type: 'string' },
    'log-file': { type: 'string', multiple: true },
    local: { type: 'boolean' },
    'clients-canonical': { type: 'boolean' },
    'product-approved': { type: 'boolean' },
  });
  if (values.help === true) return { kind: 'help' };
  const explicitEnvFile = values['env-file'];
  const explicitLogFiles = values['log-file'] ?? [];
  let env = explicitEnvFile === undefined ? currentEnv : readEnvFile(explicitEnvFile);
  let logFiles = explicitLogFiles;
  if (values.local === true) {
    if (explicitEnvFile !== undefined || explicitLogFiles.length > 0)
      throw new UsageError('--local replaces --env-file and --log-file');
    env = readLocalEnvFile(files, 'api').env;
    logFiles = (['api', 'worker', 'web'] as const).map((s) => files.logFile(s)).filter((f) => existsSync(f));
  }
  return {
    kind: 'run',
    env,
    logFiles,
    clientsCanonical: values['clients-canonical'] === true,
    productApproved: values['product-approved'] === true,
  };
}
