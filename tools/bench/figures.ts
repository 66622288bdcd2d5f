// The line protocol between a benchmark script and tools/bench/run.ts: a script prints whatever
// detail it likes, plus one `bench-figure {json}` line per figure that has a target,
// which the runner collects into its table. A figure is always a ratio against a baseline
// measured in the same run, so a busy machine moves both sides.

export const FIGURE_PREFIX = 'bench-figure ';

export interface BenchFigure {
  /** What is compared with what, e.g. "webhook req/s vs INSERT floor". */
  name: string;
  value: number;
  target: number;
  /** Whether the figure meets its target by being at least (`higher`) or at most (`lower`) it. */
  better: 'higher' | 'lower';
}

export function meetsTarget(figure: BenchFigure): boolean {
  return figure.better === 'higher' ? figure.value >= figure.target : figure.value <= figure.target;
}

export function printFigure(figure: BenchFigure): void {
  console.log(`${FIGURE_PREFIX}${JSON.stringify(figure)}`);
}

export function parseFigure(line: string): BenchFigure | undefined {
  if (!line.startsWith(FIGURE_PREFIX)) return undefined;
  return JSON.parse(line.slice(FIGURE_PREFIX.length)) as BenchFigure;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  // An empty list has no median: NaN, as the arithmetic on missing entries gave.
  const at = (index: number) => sorted[index] ?? Number.NaN;
  return sorted.length % 2 === 1 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
}
