import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import type { ConfigRole } from '@staging/config/config-error';
import type { Env } from '@staging/config/env-reader';
import { parseEnvFile } from './env-file';
import { LOCAL_HINT } from './local-stack';
import type { LocalStackFiles } from './local-stack';

/** A command line the operations commands refuse; their CLIs print it with the help text and exit 2. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * `node:util` parseArgs in strict mode with `--help`/`-h` added, its errors turned into
 * UsageError and the options also returned as ordered tokens (for options whose meaning depends
 * on what precedes them).
 */
export function parseCommandLine<O extends Options>(argv: readonly string[], options: O) {
  try {
    return parseArgs({
      args: [...argv],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
      tokens: true,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const unknown = /Unknown option '([^']+)'/.exec(message);
    throw new UsageError(unknown ? `unknown argument ${unknown[1]}` : message.split('\n')[0]);
  }
}

export function readEnvFile(file: string): Env {
  return parseEnvFile(readFileSync(file, 'utf8'));
}

/** The env file `npm start` wrote for `role`, or a UsageError telling how to get one. */
export function readLocalEnvFile(files: LocalStackFiles, role: ConfigRole): { env: Env; source: string } {
  const file = files.envFile(role);
  if (!existsSync(file)) throw new UsageError(`--local: ${file} is missing; ${LOCAL_HINT}`);
  return { env: readEnvFile(file), source: file };
}
