// Shared by the config tests: runs a parser and returns its problems (or none).
import { ConfigError } from './config-error';
import type { ConfigProblem } from './config-error';

export function problemsOf(parse: () => unknown): ConfigProblem[] {
  try {
    parse();
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
}

export function messageOf(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

export function variablesOf(problems: readonly ConfigProblem[]): string[] {
  return problems.map((p) => p.variable);
}
