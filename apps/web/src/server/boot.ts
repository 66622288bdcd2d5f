import { loadConfigOrExit } from '@staging/config/load';

/**
 * Server start of the web runtime (called from instrumentation's register): a broken
 * environment ends the process with one message listing every problem, instead of a server that
 * answers health checks and fails on the first real request.
 */
export function assertWebEnvironmentOrExit(): void {
  loadConfigOrExit('web');
}
