// What `npm start` leaves for the operations commands (packages/ops/src/local-stack.ts reads the
// same paths): one env file per role and one raw log per service, under the git-ignored .stack/.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths';

type Role = 'web' | 'api' | 'worker';

const envDir = path.join(repoRoot, '.stack', 'env');
const logDir = path.join(repoRoot, '.stack', 'logs');

/** Writes `.stack/env/<role>.env` (owner-only: it holds the local secrets). */
export function writeLocalEnvFile(role: Role, env: Record<string, string>): void {
  mkdirSync(envDir, { recursive: true });
  // JSON string quoting is a valid double-quoted dotenv value for everything the stack writes.
  const lines = Object.entries(env).map(([name, value]) => `${name}=${JSON.stringify(value)}`);
  writeFileSync(path.join(envDir, `${role}.env`), `# Written by npm start for the local stack. Never commit.\n${lines.join('\n')}\n`, {
    mode: 0o600,
  });
}

export function localLogFile(service: Role): string {
  mkdirSync(logDir, { recursive: true });
  return path.join(logDir, `${service}.log`);
}
