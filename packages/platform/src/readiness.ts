import { withTimeout } from './timeout';

/**
 * What every service's GET /readyz answers, in one set of words so an operator (and a load
 * balancer rule, and an alert) reads the api and the worker alike:
 * `{ "status": "ready" | "not_ready", "checks": { "<dependency>": "ok" | "failed" } }`, 200 when
 * ready and 503 when not.
 * Error details stay in the logs: the body is served without authentication.
 */
export interface ReadinessBody {
  status: 'ready' | 'not_ready';
  checks: Record<string, 'ok' | 'failed'>;
}

/** A dependency's probe: resolves when it answers, rejects (or never settles) when it cannot. */
export type ReadinessCheck = () => Promise<unknown>;

/**
 * A probe that has not answered within this long counts as failed: a load balancer's own probe
 * usually gives up after a few seconds, and a dependency this slow cannot serve requests either.
 */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;

async function runCheck(check: ReadinessCheck, timeoutMs: number): Promise<'ok' | 'failed'> {
  try {
    await withTimeout(check(), timeoutMs, 'readiness check timed out');
    return 'ok';
  } catch {
    return 'failed';
  }
}

/** Runs every check at once; the service is ready when every one of them answered. */
export async function checkReadiness(
  checks: Record<string, ReadinessCheck>,
  timeoutMs = READINESS_CHECK_TIMEOUT_MS,
): Promise<ReadinessBody> {
  const results = await Promise.all(Object.entries(checks).map(async ([name, check]) => [name, await runCheck(check, timeoutMs)] as const));
  const ready = results.every(([, state]) => state === 'ok');
  return { status: ready ? 'ready' : 'not_ready', checks: Object.fromEntries(results) };
}
