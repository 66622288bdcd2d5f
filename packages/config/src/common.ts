import {
  OUTPUT_COMPRESSION_RANGE,
  PROVIDER_ASPECT_RATIOS,
  PROVIDER_OUTPUT_FORMATS,
  PROVIDER_QUALITIES,
} from '@staging/domain/provider-values';
import type { ConfigRole } from './config-error';
import type { EnvReader } from './env-reader';
import type { ProducerValues } from './producer-values';
import {
  booleanRule,
  integerRule,
  modelRule,
  oneOfRule,
  queueSuffixRule,
  s3BucketRule,
  secretRule,
  textRule,
  urlRule,
  utcInstantRule,
} from './rules';

export const NODE_ENVS = ['development', 'test', 'production'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export type NodeEnv = (typeof NODE_ENVS)[number];
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface SentryConfig {
  /** Unset turns error tracking off. */
  dsn?: string;
  environment: string;
  release: string;
}

export interface StorageConfig {
  /** Unset means AWS S3 itself; set for s3rver, MinIO or another S3-compatible store. */
  endpoint?: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
  forcePathStyle: boolean;
}

/** Settings every role reads. */
export interface CommonConfig {
  nodeEnv: NodeEnv;
  databaseUrl: string;
  valkeyUrl: string;
  /** Appended to every queue name; identical on all roles; may be empty. */
  queueSuffix: string;
  /** Kill switch: true only for the exact string 'true' (docs/system.md 1.7). */
  stagingEnabled: boolean;
  /**
   * AI_DAILY_PURCHASE_CAP: most paid predictions per UTC day, all workers together; null (unset)
   * means no cap. The worker enforces it; web and api show it on the spend page.
   */
  dailyPurchaseCap: number | null;
  producer: ProducerValues;
  logLevel: LogLevel;
  sentry: SentryConfig;
}

/** Settings of the two roles that serve sessions and accept submissions (web and api). */
export interface SessionRoleConfig {
  /** Last instant legacy style aliases are accepted. */
  legacyAliasSunsetAt: Date;
  authSecret: string;
  port: number;
  /**
   * PROVIDER_MODEL, persisted with every job a producer submits (docs/system.md 9.6); read by
   * {@link readProviderModel} as on the worker, which must run the same value.
   */
  providerModel: string;
  /**
   * TRUSTED_PROXY_HOPS: how many proxies stand in front of this service and may speak through
   * X-Forwarded-For/-Host/-Proto (packages/http-edge/src/request-source.ts). 0, the default, ignores
   * those headers entirely.
   */
  trustedProxyHops: number;
}

export function readCommon(r: EnvReader): CommonConfig {
  const nodeEnv = r.optional('NODE_ENV', oneOfRule(NODE_ENVS), 'development');
  return {
    nodeEnv,
    databaseUrl: r.required('DATABASE_URL', urlRule(['postgres', 'postgresql'], 'PostgreSQL')),
    valkeyUrl: r.required('VALKEY_URL', urlRule(['redis', 'rediss'], 'Redis/Valkey')),
    // Empty is a valid suffix (docs/system.md 2.9) and the default.
    queueSuffix: r.optional('QUEUE_SUFFIX', queueSuffixRule(), ''),
    stagingEnabled: r.raw('AI_ROOM_STAGING_ENABLED') === 'true',
    dailyPurchaseCap: r.maybe('AI_DAILY_PURCHASE_CAP', integerRule(1)) ?? null,
    producer: {
      quality: r.optional('AI_STAGING_QUALITY', oneOfRule(PROVIDER_QUALITIES), 'medium'),
      aspectRatio: r.optional('AI_STAGING_ASPECT_RATIO', oneOfRule(PROVIDER_ASPECT_RATIOS), '1:1'),
      outputFormat: r.optional('AI_STAGING_OUTPUT_FORMAT', oneOfRule(PROVIDER_OUTPUT_FORMATS), 'jpeg'),
      outputCompression: r.optional(
        'AI_STAGING_OUTPUT_COMPRESSION',
        integerRule(OUTPUT_COMPRESSION_RANGE.min, OUTPUT_COMPRESSION_RANGE.max),
        92,
      ),
    },
    logLevel: r.optional('LOG_LEVEL', oneOfRule(LOG_LEVELS), 'info'),
    sentry: readSentry(r, nodeEnv),
  };
}

function readSentry(r: EnvReader, nodeEnv: NodeEnv): SentryConfig {
  const dsn = r.maybe('SENTRY_DSN', urlRule(['https', 'http'], 'Sentry DSN'));
  return {
    ...(dsn === undefined ? {} : { dsn }),
    environment: r.optional('SENTRY_ENVIRONMENT', textRule(64), nodeEnv),
    release: r.optional('RELEASE', textRule(200), 'dev'),
  };
}

export const STORAGE_VARIABLES = [
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_BUCKET',
  'S3_FORCE_PATH_STYLE',
] as const;

export function readStorage(r: EnvReader): StorageConfig {
  const endpoint = r.maybe('S3_ENDPOINT', urlRule(['https', 'http'], 'object-storage endpoint'));
  return {
    ...(endpoint === undefined ? {} : { endpoint }),
    region: r.optional('S3_REGION', textRule(64), 'us-east-1'),
    accessKeyId: r.required('S3_ACCESS_KEY_ID', secretRule(1)),
    secretAccessKey: r.required('S3_SECRET_ACCESS_KEY', secretRule(1)),
    bucket: r.required('S3_BUCKET', s3BucketRule()),
    // Custom endpoints (s3rver, MinIO) serve buckets by path; AWS wants virtual-hosted style.
    forcePathStyle: r.optional('S3_FORCE_PATH_STYLE', booleanRule(), endpoint !== undefined),
  };
}

export function readSessionRole(r: EnvReader, defaultPort: number): SessionRoleConfig {
  return {
    legacyAliasSunsetAt: r.required('AI_STAGING_LEGACY_ALIAS_SUNSET_AT', utcInstantRule()),
    authSecret: r.required('AUTH_SECRET', secretRule(32)),
    // 0 asks the OS for a free port (tests).
    port: r.optional('PORT', integerRule(0, 65535), defaultPort),
    providerModel: readProviderModel(r),
    // A CDN, a load balancer and an ingress are three; a longer chain is a misconfiguration.
    trustedProxyHops: r.optional('TRUSTED_PROXY_HOPS', integerRule(0, 10), 0),
  };
}

/** PROVIDER_MODEL: the worker runs the model the producers persist with each job, so all roles read it alike. */
export function readProviderModel(r: EnvReader): string {
  return r.optional('PROVIDER_MODEL', modelRule(), 'openai/gpt-image-2');
}

const SECRET_HOMES: Record<string, ConfigRole> = {
  PROVIDER_API_TOKEN: 'worker',
  PROVIDER_WEBHOOK_SIGNING_SECRET: 'api',
};

/**
 * docs/system.md 1: the provider token lives on the worker only and the signing secret on the api only.
 * A role handed the other's secret refuses to start, so a copy-pasted env file cannot spread them.
 */
export function checkSecretPlacement(r: EnvReader): void {
  for (const [name, home] of Object.entries(SECRET_HOMES)) {
    if (home !== r.role && r.raw(name) !== undefined) {
      r.problem(name, `must not be set on the ${r.role} (it belongs to the ${home} only)`);
    }
  }
}
