// What `npm start` leaves for the operations commands under the git-ignored .stack/: the layout is
// @staging/ops's, which reads the same files. Each directory is made on first use.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ConfigRole } from '@staging/config/config-error';
import { localStackFiles } from '@staging/ops/local-stack';
import { repoRoot } from './paths';

const files = localStackFiles(repoRoot);

/** Writes `.stack/env/<role>.env` (owner-only: it holds the local secrets). */
export function writeLocalEnvFile(role: ConfigRole, env: Record<string, string>): void {
  const file = files.envFile(role);
  mkdirSync(path.dirname(file), { recursive: true });
  // JSON string quoting is a valid double-quoted dotenv value for everything the stack writes.
  const lines = Object.entries(env).map(([name, value]) => `${name}=${JSON.stringify(value)}`);
  writeFileSync(file, `# Written by npm start for the local stack. Never commit.\n${lines.join('\n')}\n`, {
    mode: 0o600,
  });
}

export function localLogFile(service: ConfigRole): string {
  const file = files.logFile(service);
  mkdirSync(path.dirname(file), { recursive: true });
  return file;
}

/** s3rver's data directory of the local stack. */
export function localS3Dir(): string {
  mkdirSync(files.s3Dir, { recursive: true });
  return files.s3Dir;
}
