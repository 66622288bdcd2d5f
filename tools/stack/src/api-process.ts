import { spawn } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './paths';

export interface ApiProcess {
  origin: string;
  /** Everything the api wrote to stdout and stderr so far (its JSON log lines). */
  output(): string;
  /** The exit code once the process has ended on its own or been stopped; null while it runs. */
  exitCode(): number | null;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/**
 * The real api (apps/api/src/main.ts) as a process of its own, for tests and tools outside
 * apps/api: nothing imports an app. `env` is its whole environment besides PATH and HOME; set
 * PORT=0 and the api reports the port the OS gave it in its "api listening" log line.
 */
export async function startApiProcess(env: Record<string, string | undefined>): Promise<ApiProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'apps/api/src/main.ts')], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined)),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const port = await new Promise<number>((resolve, reject) => {
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output += text;
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines.filter((l) => l.startsWith('{'))) {
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        if (entry.msg === 'api listening' && entry.port !== undefined) resolve(entry.port);
      }
    });
    void exited.then(() => reject(new Error(`the api exited before listening: ${output.slice(-2000)}`)));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    output: () => output,
    exitCode: () => child.exitCode ?? (child.signalCode === null ? null : 128),
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
