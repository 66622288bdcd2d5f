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

interface Bench {
  script: string;
}

/** Every benchmark with a figure in the table. */
const BENCHES: Record<string, Bench> = {
  webhook: { script: 'tools/bench/webhook-bench.ts' },
  inventory: { script: 'tools/bench/inventory-bench.ts' },
  'public-read': { script: 'tools/bench/public-read-bench.ts' },
  'staging-job': { script: 'tools/bench/staging-job-bench.ts' },
  'description-isolation': { script: 'tools/bench/description-isolation.ts' },
  'worker-memory': { script: 'tools/bench/worker-memory-bench.ts' },
};

const { values, positionals } = parseArgs({ options: { runs: { type: 'string', default: '3' } }, allowPositionals: true });
const runs = Number(values.runs);
const unknown = positionals.filter((name) => !(name in BENCHES));
if (unknown.length > 0 || !Number.isInteger(runs) || runs < 1) {
  console.error(`usage: pnpm bench [${Object.keys(BENCHES).join('|')}]… [--runs N]`);
  process.exit(2);
}
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
  const bench = BENCHES[name]!;
  const byFigure = new Map<string, BenchFigure[]>();
  for (let run = 1; run <= runs; run += 1) {
    console.log(`\n=== ${name}, run ${run} of ${runs}: ${bench.script}`);
    for (const figure of await runOnce(bench.script)) byFigure.set(figure.name, [...(byFigure.get(figure.name) ?? []), figure]);
  }
  if (byFigure.size === 0) rows.push([name, '(no figures: see its output above)', '', '', '', '', '']);
  for (const [figureName, figures] of byFigure) {
    const values = figures.map((figure) => figure.value);
    const mid = { ...figures[0]!, value: median(values) };
    const target = `${mid.better === 'higher' ? '≥' : '≤'} ${mid.target}`;
    const f = (n: number) => n.toFixed(2);
    rows.push([name, figureName, f(Math.min(...values)), f(mid.value), f(Math.max(...values)), target, meetsTarget(mid) ? 'met' : 'NOT met']);
  }
}

const header = ['bench', 'figure (ratio, same-run baseline)', 'min', 'median', 'max', 'target', 'median vs target'];
const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
const format = (row: string[]) => row.map((cell, i) => (i >= 2 && i <= 4 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ');
console.log(`\n${format(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
for (const row of rows) console.log(format(row));
console.log(`(${runs} run${runs === 1 ? '' : 's'} of each; figures are ratios, so a busy machine moves both sides)`);
