import type { Logger } from '@staging/platform/logger';

/**
 * The staging log: the worker events of docs/system.md 6, one pino JSON line each, named by its
 * `event` field and searchable by `jobId`. Payloads carry internal IDs, prediction IDs, sizes and
 * timings only: never tokens, secrets, signed URLs or image bytes. Each is emitted after the
 * database change it reports has committed, and only by the run whose conditional update made that
 * change, so a re-run does not repeat it.
 */
export interface StagingLogPayloads {
  worker_started: { queueAttempt: number; queueWaitMs: number };
  prediction_created: {
    attemptId: string;
    attemptNumber: number;
    predictionId: string;
    /** How the ID was learned: the create response, a webhook receipt or the provider's list. */
    source: 'create' | 'webhook_receipt' | 'provider_list';
  };
  provider_terminal: {
    attemptId: string;
    attemptNumber: number;
    predictionId: string;
    providerStatus: string;
  };
  output_validated: {
    attemptId: string;
    attemptNumber: number;
    bytes: number;
    format: string;
    width: number;
    height: number;
  };
  completed: {
    attemptId: string;
    attemptNumber: number;
    predictionId: string;
    imageId: string;
    /** Submission (ai_jobs.createdAt) to SUCCESS. */
    totalMs: number;
    /** Submission to the first pickup by a worker. */
    queueWaitMs: number | null;
    /** Prediction created to provider terminal status, as recorded by the worker. */
    providerMs: number | null;
    /** Provider terminal status (as recorded) to SUCCESS: the platform's own overhead. */
    finalizeMs: number | null;
  };
  canceled: { attemptId: string | null; attemptStatus: string | null; predictionId: string | null };
  output_discarded: {
    attemptId: string;
    attemptNumber: number;
    predictionId: string | null;
    objectKey: string;
  };
  retry_scheduled: { attemptId: string; attemptNumber: number; errorCode: string; errorCategory: string };
  terminal_error: {
    attemptId: string | null;
    attemptNumber: number | null;
    /** ai_jobs.errorCode. */
    errorCode: string;
    errorCategory: string;
    /** The failing attempt's own code (differs from errorCode for ATTEMPTS_EXHAUSTED). */
    attemptErrorCode: string;
  };
}

export type StagingLogEvent = keyof StagingLogPayloads;

export type StagingLog = <E extends StagingLogEvent>(
  event: E,
  jobId: string,
  payload: StagingLogPayloads[E],
) => void;

export function createStagingLog(logger: Logger): StagingLog {
  return (event, jobId, payload) => {
    const level = event === 'terminal_error' ? 'error' : 'info';
    const line: Record<string, unknown> = { event, jobId, ...payload };
    logger[level](line, event);
  };
}
