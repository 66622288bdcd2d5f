/** One broken rule: the variable's name and the rule it breaks. Never the value. */
export interface ConfigProblem {
  variable: string;
  rule: string;
}

export type ConfigRole = 'web' | 'api' | 'worker';

/**
 * Thrown by the `parse*Env` functions with every problem found, so an operator fixes a
 * deployment in one round instead of one restart per variable. The message names variables
 * and rules only: values may be secrets and the message ends up in logs.
 */
export class ConfigError extends Error {
  readonly role: ConfigRole;
  readonly problems: readonly ConfigProblem[];

  constructor(role: ConfigRole, problems: readonly ConfigProblem[]) {
    super(formatProblems(role, problems));
    this.name = 'ConfigError';
    this.role = role;
    this.problems = problems;
  }
}

function formatProblems(role: ConfigRole, problems: readonly ConfigProblem[]): string {
  const noun = problems.length === 1 ? 'problem' : 'problems';
  const lines = problems.map((p) => `  - ${p.variable}: ${p.rule}`);
  return [`Invalid ${role} configuration (${problems.length} ${noun}):`, ...lines].join('\n');
}
