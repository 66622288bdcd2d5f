import type { ConfigRole } from '@staging/config/config-error';
import type { Env } from '@staging/config/env-reader';
import { isOneOf } from '@staging/domain/one-of';
import { UsageError, parseCommandLine, readEnvFile, readLocalEnvFile } from './cli-parse';
import type { RoleEnv } from './doctor';
import { localStackFiles } from './local-stack';
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

export type DoctorCommand = { kind: 'help' } | { kind: 'run'; roles: RoleEnv[] };

/** `--local`: every role, from the env files of the running local stack. */
export function localRoles(files: LocalStackFiles = localStackFiles()): RoleEnv[] {
  return ROLES.map((role) => ({ role, ...readLocalEnvFile(files, role) }));
}

export function parseDoctorArgs(
  argv: readonly string[],
  currentEnv: Env,
  files: LocalStackFiles = localStackFiles(),
): DoctorCommand {
  const { values, tokens } = parseCommandLine(argv, {
    role: { type: 'string', multiple: true },
    'env-file': { type: 'string', multiple: true },
    local: { type: 'boolean' },
  });
  if (values.help === true) return { kind: 'help' };
  if (values.local === true) {
    if (argv.length > 1) throw new UsageError('--local stands alone');
    return { kind: 'run', roles: localRoles(files) };
  }
  // Order matters: each --env-file belongs to the --role before it.
  const roles: RoleEnv[] = [];
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (token.name === 'role') {
      const role = token.value;
      if (!isOneOf(ROLES, role)) throw new UsageError(`--role needs one of ${ROLES.join(', ')}`);
      roles.push({ role, env: currentEnv, source: 'current environment' });
    } else if (token.name === 'env-file') {
      const last = roles.at(-1);
      if (last === undefined) throw new UsageError('--env-file follows a --role and names a file');
      last.env = readEnvFile(token.value ?? '');
      last.source = token.value ?? '';
    }
  }
  if (roles.length === 0) throw new UsageError('name at least one role, or --local');
  return { kind: 'run', roles };
}
