import { ConfigError } from '@staging/config/config-error';
import { loadConfigOrExit } from '@staging/config/load';
import { getWebAppEnv } from './web-env';

/**
 * Server start of the web runtime (called from instrumentation's register): a broken
 * environment ends the process with one message listing every problem, instead of a server that
 * answers health checks and fails on the first real request.
 */
export function assertWebEnvironmentOrExit(): void {
  loadConfigOrExit('web');
  try {
    getWebAppEnv();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
