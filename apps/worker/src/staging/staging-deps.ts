import type { Db } from '@staging/db/client';
import type { Alert } from '@staging/platform/error-tracker';
import type { Logger } from '@staging/platform/logger';
import type { ObjectStorage } from '@staging/platform/storage';
import type { ProviderClient } from '@staging/provider/provider-client';
import type { AbsenceSeen } from '@staging/services/staging/staging-queue';
import type { JobLock } from './job-lock';
import type { OutputSlots } from './output-slots';
import type { PaidStartLimiter } from '@staging/services/staging/paid-start-limiter';
import type { ProviderClock } from '@staging/services/staging/provider-clock';
import type { StagingLog } from './staging-log';

/**
 * Delays and bounds of the step loop. Production values are the defaults below; tests shorten
 * them to exercise the same code paths in seconds.
 */
export interface StagingTimings {
  /** Fallback poll of an active prediction; the webhook normally wakes the job earlier. */
  pollIntervalMs: number;
  /** Re-check of a job parked by the kill switch. */
  disabledRecheckMs: number;
  /** Pause between a retryable failure of attempt 1 (RETRYING) and reserving attempt 2. */
  retryDelayMs: number;
  /**
   * How long after its evidence deadline (creatingAt + Cancel-After + finalWebhookWindowMs) a
   * CREATING attempt whose purchase can be neither found nor ruled out keeps being looked for
   * before the job fails closed with PURCHASE_UNCONFIRMED.
   */
  createRecoveryGraceMs: number;
  /**
   * Replicate retries the final webhook "several times on an exponential backoff", the last
   * about one minute after completion: a prediction's callbacks are over by its deadline plus
   * this much.
   */
  finalWebhookWindowMs: number;
  /** Least time between the two list walks that must both find nothing before "nothing was bought". */
  absenceConfirmGapMs: number;
  /** Re-check interval while recovering a CREATING attempt. */
  recoveryPollMs: number;
  /** A prediction still not terminal after this long is canceled and counted as a timeout. */
  predictionTimeoutMs: number;
  /** Base of the exponential backoff after a provider 429 on create. */
  throttleBaseMs: number;
  /** Backoff after a transient failure that spends nothing (5xx on a poll, storage hiccup). */
  transientBackoffMs: number;
  downloadTimeoutMs: number;
  /** After this long past the provider's completion, a failing download ends the attempt. */
  downloadGiveUpMs: number;
  presignExpiresSeconds: number;
  heartbeatIntervalMs: number;
  /** Re-delivery delay when another run holds the job's lock. */
  lockBusyRetryMs: number;
  /** Upper bound of one run holding the job lock. */
  jobLockTimeoutMs: number;
}

export const DEFAULT_STAGING_TIMINGS: StagingTimings = {
  pollIntervalMs: 10_000,
  disabledRecheckMs: 30_000,
  retryDelayMs: 5_000,
  createRecoveryGraceMs: 120_000,
  finalWebhookWindowMs: 90_000,
  absenceConfirmGapMs: 30_000,
  recoveryPollMs: 5_000,
  predictionTimeoutMs: 20 * 60_000,
  throttleBaseMs: 2_000,
  transientBackoffMs: 5_000,
  downloadTimeoutMs: 120_000,
  downloadGiveUpMs: 30 * 60_000,
  presignExpiresSeconds: 3_600,
  heartbeatIntervalMs: 5_000,
  lockBusyRetryMs: 2_000,
  jobLockTimeoutMs: 10 * 60_000,
};

/** Named points between persisted steps; tests pause or crash the worker there. */
export const STEP_BOUNDARIES = [
  'after-reserve',
  // Marked CREATING with the input fingerprint, the request not yet sent.
  'before-create',
  'during-create',
  'after-create',
  'while-waiting',
  'after-download',
  'after-upload',
] as const;
export type StepBoundary = (typeof STEP_BOUNDARIES)[number];

export interface StagingSettings {
  /** Kill switch (docs/system.md 1.7): only creation of new paid predictions depends on it. */
  stagingEnabled: boolean;
  /** AI_DAILY_PURCHASE_CAP: most create calls per UTC day, all workers together; null = no cap. */
  dailyPurchaseCap: number | null;
  webhookBaseUrl: string;
  /** Sent as Cancel-After on every create (PROVIDER_CANCEL_AFTER_SECONDS). */
  cancelAfterSeconds: number;
  userHashSecret: string;
  costMicrousd: Record<string, number>;
  pricingVersion: string | undefined;
  timings: StagingTimings;
}

export interface StagingDeps {
  db: Db;
  provider: ProviderClient;
  storage: ObjectStorage;
  limiter: PaidStartLimiter;
  /** Bounds outputs held in memory at once across this process's jobs. */
  outputSlots: OutputSlots;
  stagingLog: StagingLog;
  logger: Logger;
  captureAlert: (alert: Alert) => void;
  /** The provider's clock as last measured (shared with the api); recovery widens its list span by it. */
  providerClock: ProviderClock;
  settings: StagingSettings;
  /**
   * True when the api answers on the origin of `webhookUrl`, the callback URL a create call sent
   * (its /healthz there): without that, a missing callback proves nothing.
   */
  callbackPathUp: (webhookUrl: string) => Promise<boolean>;
  /** Called at each step boundary; inert in production. */
  boundary: (name: StepBoundary, jobId: string) => Promise<void>;
  /**
   * Awaited before each step and between the output step's parts: resolves at once unless
   * urgent work of this process (a description) is in flight, then when it is done or a short
   * cap has passed.
   */
  backgroundTurn: () => Promise<void>;
}

/** One delivery of a job to the step loop. */
export interface StagingRun {
  jobId: string;
  /** BullMQ's start counter of this queue job (wake-ups and polls included). */
  queueAttempt: number;
  /** Time from enqueue to this pickup. */
  queueWaitMs: number;
  lock: JobLock;
  /** True once the process is shutting down: park at the next step boundary. */
  isStopping: () => boolean;
  /** Consecutive provider 429s on create seen by earlier deliveries (delivery state only). */
  throttleCount: number;
  /** The earlier list walk that found nothing for a CREATING attempt (delivery state only). */
  absenceSeen: AbsenceSeen | null;
}

interface DeliveryState {
  throttleCount?: number;
  absenceSeen?: AbsenceSeen;
}

export type RunOutcome = { kind: 'done' } | ({ kind: 'wait'; delayMs: number; reason: string } & DeliveryState);

export const done: RunOutcome = { kind: 'done' };

export function wait(delayMs: number, reason: string, extra: DeliveryState = {}): RunOutcome {
  return { kind: 'wait', delayMs: Math.max(0, Math.round(delayMs)), reason, ...extra };
}

/** A step either moved the ledger on (run the loop again) or ends this delivery. */
export type StepResult = 'continue' | RunOutcome;
