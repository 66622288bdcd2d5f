// `pnpm chaos [--kills N] [--seed S] [--jobs J] [--workers W] [--rate-limit R] [--drain-seconds D]
// [--daily-cap C]`: one chaos run against a stack of its own; exits 1 when any invariant is violated.
// With a daily cap the workers park jobs over it, and the agent cancels them during the drain.
import { reportLines } from './report-lines';
import { runChaos } from './run-chaos';
import { parseChaosArgs } from './chaos-args';

async function main(): Promise<number> {
  const options = parseChaosArgs(process.argv.slice(2).filter((arg) => arg !== '--'));
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
