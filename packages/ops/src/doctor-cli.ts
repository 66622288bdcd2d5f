// `pnpm run doctor --help` for the options. Prints one line per finding and exits 1 when any
// check fails, 2 on a usage error.
import { formatDoctorReport, runDoctor } from './doctor';
import { UsageError } from './cli-parse';
import { DOCTOR_HELP, parseDoctorArgs } from './doctor-args';
import type { DoctorCommand } from './doctor-args';

let command: DoctorCommand;
try {
  // eslint-disable-next-line no-restricted-properties -- a CLI entry point; each role's env is parsed by @staging/config
  command = parseDoctorArgs(process.argv.slice(2), process.env);
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`${error.message}\n\n${DOCTOR_HELP}\n`);
  process.exit(2);
}
if (command.kind === 'help') {
  process.stdout.write(`${DOCTOR_HELP}\n`);
  process.exit(0);
}
const report = await runDoctor({ roles: command.roles });
process.stdout.write(`${formatDoctorReport(report)}\n`);
process.exit(report.ok ? 0 : 1);
