// `pnpm chaos --help` for the options: one chaos run against a stack of its own; exits 1 when any
// invariant is violated. With a daily cap the workers park jobs over it, and the agent cancels
// them during the drain.
import { reportLines } from './report-lines';
import { runChaos } from './run-chaos';
import { CHAOS_HELP, parseChaosArgs, wantsHelp } from './chaos-args';
import type { ChaosOptions } from './run-chaos';

async function main(): Promise<number> {
  const argv = process.argv.slice(2).filter((arg) => arg !== '--');
  if (wantsHelp(argv)) {
    console.log(CHAOS_HELP);
    return 0;
  }
  let options: ChaosOptions;
  try {
    options = parseChaosArgs(argv);
  } catch (error) {
    console.error(`chaos: ${error instanceof Error ? error.message : String(error)}\n\n${CHAOS_HELP}`);
    return 2;
  }
  const report = await runChaos(options, (line) => console.log(line));
  for (const line of reportLines(report, options)) console.log(line);
  return report.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`chaos: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(2);
  },
);
