/**
 * The provider simulator as a process of its own (its CLI), for measurements where the provider's
 * CPU work (rendering outputs with sharp) must not run on the measuring process's event loop, as
 * it never does in production.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { baseEnv, startChildApp } from '@staging/stack/child-app';
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
  const simulator = startChildApp({
    name: 'provider simulator',
    args: ['--import', 'tsx', simulatorCli],
    cwd: path.dirname(simulatorCli),
    env: {
      ...baseEnv(),
      SIM_PORT: String(port),
      SIM_TOKEN: options.token,
      SIM_WEBHOOK_SECRET: options.webhookSigningSecret,
      SIM_COMPLETION_DELAY_MS: String(options.completionDelayMs),
    },
    capture: true,
  });
  const url = await simulator.waitForLine(
    (line) => (line.includes('provider_simulator_started') ? (JSON.parse(line) as { url: string }).url : undefined),
    { what: 'provider_simulator_started line' },
  );
  return {
    url,
    pid: simulator.process.pid!,
    async stop() {
      await simulator.stop();
    },
  };
}
