import type { ChaosOptions, ChaosReport } from './run-chaos';
import { rerunCommand } from './run-chaos';

/** The closing summary: one line per invariant with its figure and target, then the verdict. */
export function reportLines(report: ChaosReport, options: Pick<ChaosOptions, 'kills' | 'seed' | 'dailyPurchaseCap'>): string[] {
  const width = Math.max(...report.results.map((r) => r.name.length));
  const { stats } = report;
  const off = stats.killSwitchOffMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ') || 'none';
  const violations = report.results.filter((r) => !r.ok).length;
  return [
    `chaos seed ${report.seed}: ${stats.kills} kills, ${stats.jobsSubmitted} jobs (${stats.cancels} canceled${stats.capCancels > 0 ? `, ${stats.capCancels} canceled at the daily cap` : ''}), ${stats.faultsScripted} faults scripted, ` +
      `${stats.flushes} FLUSHALL, ${stats.backendsTerminated} Postgres backends terminated, kill switch off ${off}, ` +
      `${stats.unexpectedExits} unexpected exits, ${stats.eventErrors} event errors`,
    ...report.results.map(
      (r) =>
        `${r.ok ? 'ok  ' : 'FAIL'}  ${r.name.padEnd(width)}  ${r.figure}  (target ${r.target})` +
        (r.examples.length > 0 ? `  e.g. ${r.examples.join(', ')}` : ''),
    ),
    violations === 0
      ? `chaos seed ${report.seed}: every invariant at its target`
      : `chaos seed ${report.seed}: ${violations} invariant(s) violated; rerun with \`${rerunCommand(options)}\` (logs in ${report.logDir})`,
  ];
}
