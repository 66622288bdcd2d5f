// `pnpm bench [name…] [--runs N]`: runs the benchmarks (all, or the named ones) one after the
// other, N times each (default 3), shows their output as it comes, and closes with a table of
// every figure (a ratio against a baseline measured in the same run) beside its target: min,
// median and max over the runs. Prints numbers only; it never fails a build on a figure.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { meetsTarget, median, parseFigure } from './figures';
import type { BenchFigure } from './figures';
import { root } from './http-load';
import { present } from './present';

interface Bench {
  script: string;
  measures: string;
}

/** Every benchmark with a figure in the table. */
const BENCHES: Record<string, Bench> = {
  webhook: { script: 'tools/bench/webhook-bench.ts', measures: 'verified provider callbacks per second against bare Express handlers' },
  inventory: { script: 'tools/bench/inventory-bench.ts', measures: 'bulk inventory procedures and getUnits against raw pg statements' },
  'public-read': { script: 'tools/bench/public-read-bench.ts', measures: "the api's public property and search reads against a bare handler" },
  'staging-job': { script: 'tools/bench/staging-job-bench.ts', measures: "the worker's statements and CPU per staging job against the minimal ledger" },
  'description-isolation': { script: 'tools/bench/description-isolation.ts', measures: 'description latency with staging idle, then saturated' },
  'worker-memory': { script: 'tools/bench/worker-memory-bench.ts', measures: "the worker's peak memory staging four large outputs at once" },
  'public-pages': { script: 'tools/bench/public-pages-bench.ts', measures: "the built web app's listing and search pages against a static page of their size" },
  scale: { script: 'tools/bench/scale-bench.ts', measures: 'every agent and visitor read at 1×, 10× and 100× a demo customer, p95 growth and answer size' },
  fairness: { script: 'tools/bench/fairness-bench.ts', measures: "one agent's photo behind another agent's batch of 30, at the start limit of 6 a minute" },
  'time-to-result': { script: 'tools/bench/time-to-result-bench.ts', measures: "an agent's wait from submit to the live ready event, minus the provider's own time" },
};

const HELP = `usage: pnpm bench [name…] [--runs N]
       pnpm bench --help

Runs the named benchmarks (default: all) N times each (default 3) and closes with a table of
every figure, a ratio against a baseline measured in the same run, beside its target. It prints
numbers only and never fails on a figure.

${Object.entries(BENCHES)
  .map(([name, bench]) => `  ${name.padEnd(22)} ${bench.measures}`)
  .join('\n')}

  --runs N               runs of each benchmark (default 3)
  --help                 print this text`;

const usage = (problem: string): never => {
  console.error(`bench: ${problem}\n\n${HELP}`);
  process.exit(2);
};
function readCommandLine() {
  try {
    return parseArgs({ options: { runs: { type: 'string', default: '3' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true });
  } catch (error) {
    return usage(error instanceof Error ? error.message : String(error));
  }
}
const { values, positionals } = readCommandLine();
if (values.help === true) {
  console.log(HELP);
  process.exit(0);
}
const runs = Number(values.runs);
const unknown = positionals.filter((name) => !(name in BENCHES));
if (unknown.length > 0) usage(`unknown benchmark ${unknown.join(', ')}`);
if (!Number.isInteger(runs) || runs < 1) usage('--runs must be a positive integer');
const selected = positionals.length > 0 ? positionals : Object.keys(BENCHES);

/** Runs one benchmark script, echoing its output, and returns the figures it printed. */
async function runOnce(script: string): Promise<BenchFigure[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const figures: BenchFigure[] = [];
  for await (const line of createInterface({ input: child.stdout })) {
    const figure = parseFigure(line);
    if (figure === undefined) console.log(line);
    else figures.push(figure);
  }
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) console.log(`${script} exited with ${code}`);
  return figures;
}

const rows: string[][] = [];
for (const name of selected) {
  const bench = present(BENCHES[name], `bench ${name}`);
  const byFigure = new Map<string, BenchFigure[]>();
  for (let run = 1; run <= runs; run += 1) {
    console.log(`\n=== ${name}, run ${run} of ${runs}: ${bench.script}`);
    for (const figure of await runOnce(bench.script)) byFigure.set(figure.name, [...(byFigure.get(figure.name) ?? []), figure]);
  }
  if (byFigure.size === 0) rows.push([name, '(no figures: see its output above)', '', '', '', '', '']);
  for (const [figureName, figures] of byFigure) {
    const values = figures.map((figure) => figure.value);
    const mid = { ...present(figures[0], `figure ${figureName}`), value: median(values) };
    const target = `${mid.better === 'higher' ? '≥' : '≤'} ${mid.target}`;
    const f = (n: number) => n.toFixed(2);
    rows.push([name, figureName, f(Math.min(...values)), f(mid.value), f(Math.max(...values)), target, meetsTarget(mid) ? 'met' : 'NOT met']);
  }
}

const header = ['bench', 'figure (ratio, same-run baseline)', 'min', 'median', 'max', 'target', 'median vs target'];
// Every row has the header's seven cells.
const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)));
const format = (row: string[]) => row.map((cell, i) => (i >= 2 && i <= 4 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0))).join('  ');
console.log(`\n${format(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
for (const row of rows) console.log(format(row));
console.log(`(${runs} run${runs === 1 ? '' : 's'} of each; figures are ratios, so a busy machine moves both sides)`);
