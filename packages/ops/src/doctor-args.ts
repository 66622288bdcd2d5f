import { existsSync, readFileSync } from 'node:fs';
import type { ConfigRole } from '@staging/config/config-error';
import type { Env } from '@staging/config/env-reader';
import { parseEnvFile } from './env-file';
import type { RoleEnv } from './doctor';
import { LOCAL_HINT, localStackFiles } from './local-stack';
import type { LocalStackFiles } from './local-stack';

const ROLES: readonly ConfigRole[] = ['web', 'api', 'worker'];

export const DOCTOR_HELP = `usage: doctor --role <web|api|worker> [--env-file <path>] [--role ... [--env-file ...]]
       doctor --local
       doctor --help

Checks a deployment before it takes traffic: each role's environment, applied migrations, the
Redis eviction policy, the bucket, the webhook route, the provider model schema, producer parity
and the queues. Prints one line per finding.

  --role R        check role R (web, api or worker); repeat for several roles
  --env-file F    read the preceding --role's environment from F (dotenv format);
                  without it the role is checked against the current environment
  --local         check the stack \`npm start\` runs, with the env files it writes to .stack/env
  --help          print this text

Exit status: 0 every check passed, 1 a check failed, 2 usage error.`;

export class UsageError extends Error {}

export type DoctorCommand = { kind: 'help' } | { kind: 'run'; roles: RoleEnv[] };

function readEnvFile(file: string): Env {
  return parseEnvFile(readFileSync(file, 'utf8'));
}

/** `--local`: every role, from the env files of the running local stack. */
export function localRoles(files: LocalStackFiles = localStackFiles()): RoleEnv[] {
  return ROLES.map((role) => {
    const file = files.envFile(role);
    if (!existsSync(file)) throw new UsageError(`--local: ${file} is missing; ${LOCAL_HINT}`);
    return { role, env: readEnvFile(file), source: file };
  });
}

export function parseDoctorArgs(
  argv: readonly string[],
  currentEnv: Env,
  files: LocalStackFiles = localStackFiles(),
): DoctorCommand {
  if (argv.includes('--help') || argv.includes('-h')) return { kind: 'help' };
  if (argv.includes('--local')) {
    if (argv.length > 1) throw new UsageError('--local stands alone');
    return { kind: 'run', roles: localRoles(files) };
  }
  const roles: RoleEnv[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = argv[i + 1];
    if (arg === '--role') {
      if (value === undefined || !ROLES.includes(value as ConfigRole))
        throw new UsageError(`--role needs one of ${ROLES.join(', ')}`);
      roles.push({ role: value as ConfigRole, env: currentEnv, source: 'current environment' });
      i += 1;
    } else if (arg === '--env-file') {
      const last = roles.at(-1);
      if (last === undefined || value === undefined) throw new UsageError('--env-file follows a --role and names a file');
      last.env = readEnvFile(value);
      last.source = value;
      i += 1;
    } else {
      throw new UsageError(`unknown argument ${arg}`);
    }
  }
  if (roles.length === 0) throw new UsageError('name at least one role, or --local');
  return { kind: 'run', roles };
}
