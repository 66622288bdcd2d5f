import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const sourceDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsx = path.resolve(sourceDir, '../../../node_modules/.bin/tsx');

/**
 * Runs one of this package's CLIs (`script`, relative to src/) through tsx as an operator would,
 * and resolves with its exit status and standard output. Asynchronous, so a server the test runs in
 * its own process keeps answering while the CLI talks to it.
 */
export function runOpsCli(script: string, args: string[]): Promise<{ status: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      tsx,
      [path.join(sourceDir, script), ...args],
      // A hang guard for one CLI run: on two busy cores tsx alone can take tens of seconds to start.
      { cwd: path.join(sourceDir, '..'), timeout: 120_000 },
      (error, stdout) => {
        resolve({ status: error === null ? 0 : Number((error as { code?: unknown }).code ?? -1), stdout });
      },
    );
  });
}
