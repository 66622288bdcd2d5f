// `pnpm doctor --role worker --env-file worker.env --role api --env-file api.env [--role web]`
// A --role without --env-file is checked against the current environment. Prints one line per
// finding and exits 1 when any check fails, 2 on a usage error.
import { readFileSync } from 'node:fs';
import type { ConfigRole } from '@staging/config/config-error';
import { parseEnvFile } from './env-file';
import { formatDoctorReport, runDoctor } from './doctor';
import type { RoleEnv } from './doctor';

const ROLES: readonly ConfigRole[] = ['web', 'api', 'worker'];
const USAGE = 'usage: doctor --role <web|api|worker> [--env-file <path>] [--role ... [--env-file ...]]';

function fail(text: string): never {
  process.stderr.write(`${text}\n${USAGE}\n`);
  process.exit(2);
}

function parseDoctorArgs(argv: readonly string[], currentEnv: Record<string, string | undefined>): RoleEnv[] {
  const roles: RoleEnv[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = argv[i + 1];
    if (arg === '--role') {
      if (value === undefined || !ROLES.includes(value as ConfigRole))
        fail(`--role needs one of ${ROLES.join(', ')}`);
      roles.push({ role: value as ConfigRole, env: currentEnv, source: 'current environment' });
      i += 1;
    } else if (arg === '--env-file') {
      const last = roles.at(-1);
      if (last === undefined || value === undefined) fail('--env-file follows a --role and names a file');
      last.env = parseEnvFile(readFileSync(value, 'utf8'));
      last.source = value;
      i += 1;
    } else {
      fail(`unknown argument ${arg}`);
    }
  }
  if (roles.length === 0) fail('name at least one role');
  return roles;
}

// eslint-disable-next-line no-restricted-properties -- a CLI entry point; each role's env is parsed by @staging/config
const report = await runDoctor({ roles: parseDoctorArgs(process.argv.slice(2), process.env) });
process.stdout.write(`${formatDoctorReport(report)}\n`);
process.exit(report.ok ? 0 : 1);
