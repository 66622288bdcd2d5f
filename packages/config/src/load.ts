import type { ApiConfig } from './api';
import { parseApiEnv } from './api';
import { ConfigError } from './config-error';
import type { ConfigRole } from './config-error';
import type { Env } from './env-reader';
import type { WebConfig } from './web';
import { parseWebEnv } from './web';
import type { WorkerConfig } from './worker';
import { parseWorkerEnv } from './worker';

export interface RoleConfigs {
  web: WebConfig;
  api: ApiConfig;
  worker: WorkerConfig;
}

const PARSERS: { [R in ConfigRole]: (env: Env) => RoleConfigs[R] } = {
  web: parseWebEnv,
  api: parseApiEnv,
  worker: parseWorkerEnv,
};

/**
 * Entry point of every process: parses the role's environment or prints one message listing
 * every problem to stderr and exits with status 1, before any connection is opened.
 */
export function loadConfigOrExit<R extends ConfigRole>(role: R, env: Env = process.env): RoleConfigs[R] {
  try {
    return PARSERS[role](env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
