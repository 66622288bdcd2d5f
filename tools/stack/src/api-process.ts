import path from 'node:path';
import { baseEnv, startChildApp } from './child-app';
import { numberField, parsedFields } from './json-fields';
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

/** The port of the api's "api listening" line, or undefined for any other line. */
function listeningPort(line: string): number | undefined {
  const entry = line.startsWith('{') ? parsedFields(line) : {};
  return entry['msg'] === 'api listening' ? numberField(entry, 'port') : undefined;
}

/**
 * The real api (apps/api/src/main.ts) as a process of its own, for tests and tools outside
 * apps/api: nothing imports an app. `env` is its whole environment besides PATH and HOME; set
 * PORT=0 and the api reports the port the OS gave it in its "api listening" log line.
 */
export async function startApiProcess(env: Record<string, string | undefined>): Promise<ApiProcess> {
  const api = startChildApp({
    name: 'the api',
    args: ['--import', 'tsx', path.join(repoRoot, 'apps/api/src/main.ts')],
    cwd: repoRoot,
    env: { ...baseEnv(), ...env },
    capture: true,
  });
  const port = await api.waitForLine(listeningPort, { what: '"api listening" line' });
  return {
    origin: `http://127.0.0.1:${port}`,
    output: () => api.output(),
    exitCode: () => api.process.exitCode ?? (api.process.signalCode === null ? null : 128),
    async stop() {
      await api.stop();
    },
  };
}
