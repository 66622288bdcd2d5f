import type { z } from 'zod';
import { ConfigError } from './config-error';
import type { ConfigProblem, ConfigRole } from './config-error';

export type Env = Record<string, string | undefined>;

/** A rule for one variable: a zod schema from the raw string to the typed value. */
export type EnvRule<T> = z.ZodType<T, string>;

/**
 * Reads variables one by one and collects every broken rule instead of stopping at the first.
 * An empty string counts as unset: `.env` files and orchestrators write `NAME=` for "no value",
 * and a blank secret must be reported as missing, not accepted.
 */
export class EnvReader {
  readonly problems: ConfigProblem[] = [];
  readonly warnings: string[] = [];

  constructor(
    private readonly env: Env,
    readonly role: ConfigRole,
  ) {}

  raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value === '' ? undefined : value;
  }

  names(): string[] {
    return Object.keys(this.env);
  }

  problem(variable: string, rule: string): void {
    this.problems.push({ variable, rule });
  }

  /**
   * Parses a required variable. When it is missing or invalid the problem is recorded and a
   * placeholder is returned; `finish` throws before any config holding a placeholder escapes.
   */
  required<T>(name: string, rule: EnvRule<T>): T {
    const raw = this.raw(name);
    if (raw === undefined) this.problem(name, 'is required');
    // undefined is the placeholder: typed as T so the config can be built before `finish` throws.
    return (raw === undefined ? undefined : this.check(name, raw, rule)) as T;
  }

  optional<T>(name: string, rule: EnvRule<T>, fallback: T): T {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const parsed = this.check(name, raw, rule);
    return parsed === undefined ? fallback : parsed;
  }

  maybe<T>(name: string, rule: EnvRule<T>): T | undefined {
    const raw = this.raw(name);
    return raw === undefined ? undefined : this.check(name, raw, rule);
  }

  /** Throws the collected problems, or returns the config that was built alongside. */
  finish<C>(config: C): C {
    if (this.problems.length > 0) throw new ConfigError(this.role, [...this.problems]);
    return config;
  }

  private check<T>(name: string, raw: string, rule: EnvRule<T>): T | undefined {
    const result = rule.safeParse(raw);
    if (result.success) return result.data;
    // Rules carry their own messages that describe the expected shape; none quotes the input,
    // because inputs may be secrets and these messages are printed and logged.
    for (const issue of result.error.issues) this.problem(name, issue.message);
    return undefined;
  }
}
