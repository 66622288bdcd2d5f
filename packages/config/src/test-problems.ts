// Shared by the config tests: runs a parser and returns its problems (or none).
import { ConfigError } from './config-error';
import type { ConfigProblem } from './config-error';
import type { Env } from './env-reader';

/** The ConfigError `parse` throws, or null when it parses; any other error propagates. */
function configErrorOf(parse: () => unknown): ConfigError | null {
  try {
    parse();
    return null;
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
}

export function problemsOf(parse: () => unknown): ConfigProblem[] {
  return [...(configErrorOf(parse)?.problems ?? [])];
}

export function messageOf(parse: () => unknown): string {
  const error = configErrorOf(parse);
  if (error === null) throw new Error('expected a ConfigError');
  return error.message;
}

export function variablesOf(problems: readonly ConfigProblem[]): string[] {
  return problems.map((p) => p.variable);
}

/** Per variable, the bad values to try, each with words its rule must contain. */
export type ProblemCases = Readonly<Record<string, ReadonlyArray<readonly [value: string | undefined, rule: string]>>>;

/**
 * One test per case: `parseVars` given `{ [variable]: value }` reports exactly one problem, for
 * that variable, whose rule contains the expected words.
 */
export function itReportsEachProblem(parseVars: (vars: Env) => unknown, cases: ProblemCases): void {
  const rows = Object.entries(cases).flatMap(([variable, values]) =>
    values.map(([value, rule]) => [variable, value, rule] as const),
  );
  it.each(rows)('%s=%p is a problem (%s)', (variable, value, rule) => {
    expect(problemsOf(() => parseVars({ [variable]: value }))).toEqual([
      { variable, rule: expect.stringContaining(rule) },
    ]);
  });
}
