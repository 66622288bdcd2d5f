import { checkSecretPlacement, readCommon, readProviderModel, readStorage } from './common';
import type { CommonConfig, StorageConfig } from './common';
import { EnvReader } from './env-reader';
import type { Env } from './env-reader';
import { hexKeyRule, integerRule, oneOfRule, secretRule, textRule, urlRule, utcInstantRule } from './rules';
import { readStagingCosts } from './staging-costs';
import { webhookBaseUrlProblems } from './webhook-base-url';

export interface DashboardConfig {
  user: string;
  password: string;
  /**
   * QUEUE_DASHBOARD_WRITES=enabled: retry, promote, clean, add, pause and every other changing
   * action of the dashboard are allowed. Off by default: the dashboard only shows the queues.
   */
  writesEnabled: boolean;
}

export interface WorkerConfig extends CommonConfig {
  role: 'worker';
  storage: StorageConfig;
  /** Bearer credential for the provider API; lives on the worker only. */
  providerApiToken: string;
  /** Without a trailing slash, so callers append `/predictions`. */
  providerApiBaseUrl: string;
  providerModel: string;
  /**
   * PROVIDER_CANCEL_AFTER_SECONDS: sent as Replicate's `Cancel-After` header on every create, so a
   * prediction we bought is terminal by then (aborted before starting: not billed; canceled while
   * running: billed). It also bounds how long the worker must wait before it may conclude that a
   * create whose response was lost bought nothing. Default 600 s: several times gpt-image-2's
   * slowest observed runs at high quality, below the 20-minute prediction timeout.
   */
  providerCancelAfterSeconds: number;
  /**
   * PROVIDER_READ_LIMIT_PER_MINUTE: get, list and cancel calls per minute, shared by every worker of
   * the namespace. Default 2400: Replicate allows 3000 such calls a minute per account; the rest
   * is left to other tools on the same account.
   */
  providerReadLimitPerMinute: number;
  /**
   * PROVIDER_RECONCILE_INTERVAL_MS: how often one worker of the namespace compares the provider's
   * recent predictions with the ledger and cancels running purchases no attempt holds. Default
   * 60 s: with the list lag, how long an orphan runs before it is canceled (docs/system.md 10).
   */
  providerReconcileIntervalMs: number;
  /** Public https origin the provider calls back; no path, no trailing slash. */
  webhookBaseUrl: string;
  /** 64 hex characters; HMAC key for the user_id sent to the provider. */
  userHashSecret: string;
  stagingConcurrency: number;
  /**
   * AI_STAGING_RATE_LIMIT_PER_MINUTE: the paid-start limiter's starts per window, shared queue-wide
   * by every worker on the namespace.
   */
  paidStartLimitPerMinute: number;
  /** AI_STAGING_RATE_LIMIT_WINDOW_MS: the paid-start limiter's window; 60000 in production, shorter in tests to exercise the same code path. */
  paidStartLimitWindowMs: number;
  descriptionConcurrency: number;
  /** Price per key (e.g. `medium`) in micro-US-dollars; empty means no estimate. Telemetry only. */
  costMicrousd: Record<string, number>;
  pricingVersion?: string;
  /** Undefined keeps the queue dashboard off (docs/system.md 5.5: never exposed without both). */
  dashboard: DashboardConfig | undefined;
  port: number;
  deletionOutboxIntervalMs: number;
  /**
   * Last instant the legacy bridge accepts old style names (docs/system.md 9.3). Optional on the worker:
   * without it the bridge refuses aliases and still bridges canonical names.
   */
  legacyAliasSunsetAt: Date | null;
  /** Non-fatal findings the worker logs at boot. */
  warnings: string[];
}

/**
 * Parses the worker's environment.
 * @throws ConfigError listing every problem.
 */
export function parseWorkerEnv(env: Env): WorkerConfig {
  const r = new EnvReader(env, 'worker');
  checkSecretPlacement(r);
  const common = readCommon(r);
  const pricingVersion = r.maybe('AI_STAGING_PRICING_VERSION', textRule(100));
  const config: WorkerConfig = {
    role: 'worker',
    ...common,
    storage: readStorage(r),
    providerApiToken: r.required('PROVIDER_API_TOKEN', secretRule(1)),
    providerApiBaseUrl: readProviderBaseUrl(r, common.nodeEnv === 'production'),
    providerModel: readProviderModel(r),
    providerCancelAfterSeconds: r.optional('PROVIDER_CANCEL_AFTER_SECONDS', integerRule(5, 3_600), 600),
    providerReadLimitPerMinute: r.optional('PROVIDER_READ_LIMIT_PER_MINUTE', integerRule(1, 3_000), 2_400),
    providerReconcileIntervalMs: r.optional('PROVIDER_RECONCILE_INTERVAL_MS', integerRule(1_000, 3_600_000), 60_000),
    webhookBaseUrl: readWebhookBaseUrl(r, common.nodeEnv === 'production'),
    userHashSecret: readUserHashSecret(r),
    stagingConcurrency: r.optional('AI_STAGING_CONCURRENCY', integerRule(1), 4),
    paidStartLimitPerMinute: r.optional('AI_STAGING_RATE_LIMIT_PER_MINUTE', integerRule(1), 6),
    paidStartLimitWindowMs: r.optional('AI_STAGING_RATE_LIMIT_WINDOW_MS', integerRule(1), 60_000),
    descriptionConcurrency: r.optional('AI_DESCRIPTION_CONCURRENCY', integerRule(1), 2),
    costMicrousd: readStagingCosts(r),
    ...(pricingVersion === undefined ? {} : { pricingVersion }),
    dashboard: readDashboard(r),
    // 0 asks the OS for a free port (tests), the listener logs the one it got.
    port: r.optional('PORT', integerRule(0, 65535), 4100),
    deletionOutboxIntervalMs: r.optional('DELETION_OUTBOX_INTERVAL_MS', integerRule(1), 30_000),
    legacyAliasSunsetAt: r.maybe('AI_STAGING_LEGACY_ALIAS_SUNSET_AT', utcInstantRule()) ?? null,
    warnings: r.warnings,
  };
  if (Object.keys(config.costMicrousd).length > 0 && pricingVersion === undefined) {
    r.warnings.push('AI_STAGING_COST_MICROUSD_* is set without AI_STAGING_PRICING_VERSION; estimates carry no price source');
  }
  return r.finish(config);
}

function readProviderBaseUrl(r: EnvReader, isProduction: boolean): string {
  // The token travels in every request, so production insists on TLS; the local simulator is http.
  const schemes = isProduction ? ['https'] : ['https', 'http'];
  const value = r.optional('PROVIDER_API_BASE_URL', urlRule(schemes, isProduction ? 'https' : 'http(s)'), 'https://api.replicate.com/v1');
  return value.replace(/\/+$/, '');
}

function readWebhookBaseUrl(r: EnvReader, isProduction: boolean): string {
  const override = r.raw('ALLOW_INSECURE_WEBHOOK_BASE_URL') === 'true';
  if (override && isProduction) {
    r.problem('ALLOW_INSECURE_WEBHOOK_BASE_URL', "must not be 'true' when NODE_ENV is production");
  }
  const value = r.raw('PROVIDER_WEBHOOK_BASE_URL');
  if (value === undefined) {
    r.problem('PROVIDER_WEBHOOK_BASE_URL', 'is required');
    return '';
  }
  const allowInsecure = override && !isProduction;
  if (allowInsecure) {
    r.warnings.push('ALLOW_INSECURE_WEBHOOK_BASE_URL is on: PROVIDER_WEBHOOK_BASE_URL may use http and an internal host');
  }
  for (const rule of webhookBaseUrlProblems(value, { allowInsecure })) r.problem('PROVIDER_WEBHOOK_BASE_URL', rule);
  return value;
}

function readUserHashSecret(r: EnvReader): string {
  const secret = r.required('AI_STAGING_USER_HASH_SECRET', hexKeyRule(64));
  const authSecret = r.raw('AUTH_SECRET');
  // Compared case-insensitively: two hex strings differing only in case are the same key bytes.
  if (secret !== undefined && authSecret !== undefined && secret.toLowerCase() === authSecret.toLowerCase()) {
    r.problem('AI_STAGING_USER_HASH_SECRET', 'must differ from AUTH_SECRET (the secrets are independent)');
  }
  return secret;
}

function readDashboard(r: EnvReader): DashboardConfig | undefined {
  const user = r.raw('QUEUE_DASHBOARD_USER');
  const password = r.raw('QUEUE_DASHBOARD_PASSWORD');
  // Parsed even while the dashboard is off, so a mistyped value fails at boot, not on the day the
  // credentials are added.
  const writes = r.optional('QUEUE_DASHBOARD_WRITES', oneOfRule(['enabled', 'disabled']), 'disabled');
  if (user !== undefined && password !== undefined) return { user, password, writesEnabled: writes === 'enabled' };
  if (user !== undefined || password !== undefined) {
    const missing = user === undefined ? 'QUEUE_DASHBOARD_USER' : 'QUEUE_DASHBOARD_PASSWORD';
    r.warnings.push(`queue dashboard disabled: ${missing} is not set (both are required to expose it)`);
  }
  return undefined;
}
