// `tsx packages/config/src/check-config-cli.ts <web|api|worker>`: validates the current
// environment for a role exactly as the process would at boot, so a deploy pipeline can refuse a
// broken configuration before rollout. Exits 1 with the list of problems, 0 when it would boot.
import type { ConfigRole } from './config-error';
import { loadConfigOrExit } from './load';
import { producerValuesFingerprint } from './producer-values';

const ROLES: readonly ConfigRole[] = ['web', 'api', 'worker'];
const role = ROLES.find((candidate) => candidate === process.argv[2]);

if (role === undefined) {
  process.stderr.write(`usage: check-config-cli <${ROLES.join('|')}>\n`);
  process.exit(2);
}

const config = loadConfigOrExit(role);
const warnings = 'warnings' in config ? config.warnings : [];
for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
process.stdout.write(
  `${role} configuration OK (producer values ${producerValuesFingerprint(config.producer)}, staging ${config.stagingEnabled ? 'enabled' : 'disabled'})\n`,
);
