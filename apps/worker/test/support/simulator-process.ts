/**
 * The provider simulator as a process of its own (its CLI), for measurements where the provider's
 * CPU work (rendering outputs with sharp) must not run on the measuring process's event loop, as
 * it never does in production.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@staging/stack/free-port';

const simulatorCli = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../tools/provider-simulator/src/cli.ts',
);

export interface SimulatorProcess {
  /** Provider API base URL (PROVIDER_API_BASE_URL). */
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export async function spawnProviderSimulator(options: {
  token: string;
  webhookSigningSecret: string;
  completionDelayMs: number;
}): Promise<SimulatorProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', simulatorCli], {
    cwd: path.dirname(simulatorCli),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      SIM_PORT: String(port),
      SIM_TOKEN: options.token,
      SIM_WEBHOOK_SECRET: options.webhookSigningSecret,
      SIM_COMPLETION_DELAY_MS: String(options.completionDelayMs),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = out.split('\n').find((l) => l.includes('provider_simulator_started'));
      if (line !== undefined) resolve((JSON.parse(line) as { url: string }).url);
    });
    void exited.then(() => reject(new Error(`provider simulator exited before it started: ${stderr}`)));
  });
  return {
    url,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
