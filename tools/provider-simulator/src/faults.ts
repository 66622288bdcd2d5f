/**
 * Scripted outcomes for the next prediction creations, consumed in order (one per create request
 * that passes auth and validation). Tests queue them through POST /__sim/faults.
 */
import { z } from 'zod';
import type { WebhookEvent } from './webhook-delivery';

export const FAULT_NAMES = [
  'fail',
  'fail_permanent',
  'http_500',
  'http_429',
  'slow',
  'never_complete',
  'duplicate_webhook',
  'no_webhook',
  'truncated_output',
  'non_image_output',
  'oversize_output',
  'wrong_aspect_ratio',
  'response_lost',
  // What a real account does that a strict single-tenant simulator did not:
  /** The prediction shows in get at once but in the list only after `listLagMs` (default 150 s). */
  'list_lag',
  /** Before ours, the account gains predictions of other models, website runs, object outputs, null and removed inputs. */
  'foreign_predictions',
  /**
   * Gets, lists and webhooks echo the input with the image URL rewritten (as a provider may copy
   * files), or with the keys named in `rewrite` altered.
   */
  'echo_rewritten',
  /** The prediction is created (and billed), then the create call is answered 500. */
  'http_500_after_create',
  /** The next `count` (default 3) get, list and cancel calls are answered 429. */
  'throttle_reads',
  /** The final webhook is delivered twice, each with its own webhook-id. */
  'duplicate_webhook_new_id',
  // What Replicate's OpenAPI document and deadline changelog allow that a prompt simulator never did:
  /** Never starts; `aborted` at `delayMs` (default completion delay), as when its deadline passes in the queue. */
  'aborted_before_start',
  /** Stays `starting`: only its Cancel-After deadline (then `aborted`) or a cancel ends it. */
  'stuck_starting',
  /** Intermediate callbacks (start, logs, output) are held and delivered after the final one, newest first. */
  'webhooks_out_of_order',
  /** The create is answered only after the final callback was delivered. */
  'webhook_before_response',
  /** A cancel comes too late: it is answered with the prediction still running, which then succeeds. */
  'cancel_loses_race',
  /** The create is answered 202 ("created but does not yet have all outputs") instead of 201. */
  'accepted_202',
] as const;
export type FaultName = (typeof FAULT_NAMES)[number];

export interface FaultSpec {
  name: FaultName;
  /** Any fault: creation to completion (slow: instead of the simulator's slowCompletionDelayMs). */
  delayMs?: number;
  /** http_429: the N of "Your rate limit resets in ~Ns." (default 1). */
  retryAfterSeconds?: number;
  /**
   * Any fault: the callbacks that are lost. no_webhook loses every event unless told which;
   * every other fault loses none unless told.
   */
  events?: WebhookEvent[];
  /** Any fault: the prediction shows in the list only this long after its creation (list_lag: default 150 s). */
  listLagMs?: number;
  /** throttle_reads: how many calls are answered 429. */
  count?: number;
  /** Any fault: the prediction is created, but the caller never hears back (as response_lost). */
  responseLost?: boolean;
  /**
   * Any fault: only a create with an input image URL containing this text takes it; others pass it
   * by. Tests that run side by side against one simulator keep their faults to their own photos.
   */
  inputImageContains?: string;
  /**
   * echo_rewritten: the input keys echoed altered (default ['input_images']). Image URLs become the
   * provider's own; text gains a trailing space; a number is echoed as text.
   */
  rewrite?: string[];
}

const ZFaultObject = z.strictObject({
  name: z.enum(FAULT_NAMES),
  delayMs: z.int().min(0).max(3_600_000).optional(),
  retryAfterSeconds: z.int().min(0).max(3_600).optional(),
  events: z.array(z.enum(['start', 'output', 'logs', 'completed'])).min(1).optional(),
  listLagMs: z.int().min(0).max(3_600_000).optional(),
  count: z.int().min(1).max(10_000).optional(),
  responseLost: z.boolean().optional(),
  inputImageContains: z.string().min(1).max(500).optional(),
  rewrite: z.array(z.string().min(1)).min(1).optional(),
});

/** A fault is its name or an object with options; the request body is a list or `{ faults }`. */
export const ZFaultList = z
  .union([z.array(z.union([z.enum(FAULT_NAMES), ZFaultObject])), z.strictObject({ faults: z.array(z.union([z.enum(FAULT_NAMES), ZFaultObject])) })])
  .transform((value) => (Array.isArray(value) ? value : value.faults))
  .transform((list): FaultSpec[] => list.map((entry) => (typeof entry === 'string' ? { name: entry } : entry)));

/** Takes out of the queue the first fault meant for a create with these input images. */
export function takeFault(queue: FaultSpec[], inputImages: readonly string[]): FaultSpec | null {
  const index = queue.findIndex(({ inputImageContains }) => inputImageContains === undefined || inputImages.some((url) => url.includes(inputImageContains)));
  return index === -1 ? null : (queue.splice(index, 1)[0] ?? null);
}

/** Text of a transient failure; the worker's classifier must treat it as retryable. */
export const RETRYABLE_FAILURE_ERROR = 'Prediction failed: internal server error in the model runtime (simulated transient failure, retry later)';
/** Text of a safety rejection; the worker's classifier must treat it as permanent. */
export const PERMANENT_FAILURE_ERROR = 'The input or output was flagged as sensitive by the safety system (E005, simulated)';
