import { checkSecretPlacement, readCommon, readSessionRole, readStorage, STORAGE_VARIABLES } from './common';
import type { CommonConfig, SessionRoleConfig, StorageConfig } from './common';
import { EnvReader } from './env-reader';
import { readStagingCosts } from './staging-costs';
import { integerRule, urlRule } from './rules';
import type { Env } from './env-reader';

export interface WebConfig extends CommonConfig, SessionRoleConfig {
  role: 'web';
  /** The web runtime does not store objects; present only when S3_* variables are given. */
  storage: StorageConfig | undefined;
  /** Origin of the api service; the web app forwards image and public REST routes there. */
  apiOrigin: string;
  /** AI_STAGING_COST_MICROUSD_*, shown as an estimate before a submission; empty means none. */
  stagingCostMicrousd: Record<string, number>;
  /**
   * DASHBOARD_POLL_SECONDS: how often a dashboard page asks for changes while its live stream is
   * not connected (review queue, navigation badge, job list; a job list with a running job asks
   * ten times as often). While the stream is connected the pages do not poll.
   */
  dashboardPollSeconds: number;
}

/**
 * Parses the web runtime's environment.
 * @throws ConfigError listing every problem.
 */
export function parseWebEnv(env: Env): WebConfig {
  const r = new EnvReader(env, 'web');
  checkSecretPlacement(r);
  const hasStorage = STORAGE_VARIABLES.some((name) => r.raw(name) !== undefined);
  const common = readCommon(r);
  const sessionRole = readSessionRole(r, 3000);
  // `next start` serves plain HTTP and hides the socket's address from route handlers, so a
  // production web always sits behind a TLS proxy it must trust: without it there is no client
  // address for the login limits and no HTTPS for Secure cookies (docs/decisions/api.md "Trusted
  // proxy hops").
  if (common.nodeEnv === 'production' && sessionRole.trustedProxyHops === 0) {
    r.problem('TRUSTED_PROXY_HOPS', 'must be at least 1 in production (the web runs behind a TLS-terminating proxy)');
  }
  return r.finish({
    role: 'web',
    ...common,
    ...sessionRole,
    storage: hasStorage ? readStorage(r) : undefined,
    apiOrigin: r.required('API_ORIGIN', urlRule(['http', 'https'], 'api origin').transform((url) => url.replace(/\/+$/, ''))),
    stagingCostMicrousd: readStagingCosts(r),
    dashboardPollSeconds: r.optional('DASHBOARD_POLL_SECONDS', integerRule(1, 3_600), 15),
  });
}
