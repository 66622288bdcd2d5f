/**
 * The documents Replicate's API sends and takes, and the readers that validate them. Kept apart from
 * the HTTP client because the webhook receiver reads the same prediction document without ever
 * calling the API.
 */
import { z } from 'zod';

export const PREDICTION_STATUSES = ['starting', 'processing', 'succeeded', 'failed', 'canceled', 'aborted'] as const;
export type PredictionStatus = (typeof PREDICTION_STATUSES)[number];

export type WebhookEventType = 'start' | 'output' | 'logs' | 'completed';

/** The model inputs this service sends; names are the provider's (snake_case). */
export interface PredictionInput {
  prompt: string;
  input_images: string[];
  aspect_ratio: string;
  quality: string;
  output_format: string;
  output_compression: number;
  /** HMAC of the internal user ID (see user-hash.ts), never the raw ID. */
  user_id: string;
}

export interface CreatePredictionInput {
  /** `owner/name`, e.g. `openai/gpt-image-2` (the persisted providerModel). */
  model: string;
  input: PredictionInput;
  /** Callback URL; see webhook-url.ts. */
  webhook: string;
  /** Defaults to ['completed']: one signed callback on succeeded/failed/canceled. */
  webhookEventsFilter?: WebhookEventType[];
  /**
   * Sent as the `Cancel-After` header: the provider aborts the prediction if it has not started by
   * then (not billed) or cancels it if it is still running (billed). Whole seconds; Replicate
   * refuses less than 5 (PROVIDER_CANCEL_AFTER_SECONDS is 5–3600).
   */
  cancelAfterSeconds?: number;
}

const ZPrediction = z.looseObject({
  id: z.string().min(1),
  status: z.enum(PREDICTION_STATUSES),
  output: z.union([z.string(), z.array(z.string()), z.null()]).optional(),
  // Replicate documents a string, but a structured error must not make a terminal prediction
  // unreadable (the poll would then retry forever), so anything else is kept as JSON text.
  error: z.unknown().optional().transform((value) => (value === null || value === undefined ? null : typeof value === 'string' ? value : JSON.stringify(value))),
  urls: z.record(z.string(), z.string()).optional(),
  created_at: z.string(),
  started_at: z.string().nullish(),
  completed_at: z.string().nullish(),
  // Present when the create carried Cancel-After (Replicate's OpenAPI prediction object).
  deadline: z.string().nullish(),
  // Not in Replicate's documented prediction object: recovery never relies on it (prediction-recovery.ts).
  webhook: z.string().nullish(),
  input: z.record(z.string(), z.unknown()).optional(),
  // True once Replicate removed input and output (about an hour after completion).
  data_removed: z.boolean().optional(),
  metrics: z.record(z.string(), z.unknown()).nullish(),
  model: z.string().optional(),
  version: z.string().optional(),
  logs: z.string().nullish(),
  source: z.string().optional(),
  deployment: z.string().nullish(),
});

export interface Prediction {
  id: string;
  status: PredictionStatus;
  /** Output file URL(s); image models return a list with one URL. */
  output: string | string[] | null;
  error: string | null;
  urls?: Record<string, string>;
  created_at: string;
  started_at?: string | null;
  completed_at?: string | null;
  /** When the provider cancels (running) or aborts (not started) it: creation + Cancel-After. */
  deadline?: string | null;
  webhook?: string | null;
  input?: Record<string, unknown>;
  data_removed?: boolean;
  metrics?: Record<string, unknown> | null;
  model?: string;
  version?: string;
  logs?: string | null;
  /** 'api' or 'web'. */
  source?: string;
  /** `owner/name` of the deployment, for predictions created through one. */
  deployment?: string | null;
}

/** Validates an untrusted prediction document (API response or webhook body). */
export function parsePrediction(value: unknown): Prediction {
  const parsed = ZPrediction.parse(value);
  return { ...parsed, output: parsed.output ?? null, error: parsed.error ?? null };
}

/**
 * One entry of the account-wide list, read on its own: the list holds every prediction of the
 * account (other tokens, models, website runs), whose `output` may be any JSON and whose `input`
 * may be null or removed. Only what recovery compares is kept.
 */
export interface ListedPrediction {
  readable: true;
  id: string;
  status: string;
  created_at: string;
  model: string | null;
  /** 'api' or 'web' (Replicate's documented values); null when absent. */
  source: string | null;
  /** Null when the provider echoed none (removed data, null input, website runs). */
  input: Record<string, unknown> | null;
  data_removed: boolean;
  webhook: string | null;
}

/** An entry that is not even a prediction object we can read (no id, no created_at, ...). */
export interface UnreadableListEntry {
  readable: false;
  created_at: string | null;
}

export interface PredictionPage {
  results: (ListedPrediction | UnreadableListEntry)[];
  /**
   * The provider's full URL of the next (older) page, or null on the last page and when the link
   * was refused.
   */
  next: string | null;
  /**
   * Set when the page had a `next` link off the API's list (list-link.ts): the origin it named.
   * The older pages are then unread, not absent.
   */
  refusedNextOrigin?: string;
}

export interface ListPredictionsOptions {
  /** A `next` URL of an earlier page of the client (on the API's list, however spelled). */
  next?: string | null;
  /** Replicate's `created_after` filter (inclusive). Ignored when `next` is given: it carries it. */
  createdAfter?: Date;
  /** Replicate's `created_before` filter (exclusive). Ignored when `next` is given. */
  createdBefore?: Date;
}

export const ZPredictionPage = z.looseObject({ results: z.array(z.unknown()), next: z.string().nullish() });

const ZListedPrediction = z.looseObject({
  id: z.string().min(1),
  status: z.string(),
  created_at: z.string().refine((value) => !Number.isNaN(Date.parse(value))),
  model: z.string().nullish(),
  source: z.string().nullish(),
  input: z.unknown().optional(),
  data_removed: z.boolean().nullish(),
  webhook: z.unknown().optional(),
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads one list entry; anything unexpected makes that entry unreadable, never the page. */
export function readListEntry(value: unknown): ListedPrediction | UnreadableListEntry {
  const parsed = ZListedPrediction.safeParse(value);
  if (!parsed.success) {
    const createdAt = typeof value === 'object' && value !== null && 'created_at' in value ? value.created_at : undefined;
    return { readable: false, created_at: typeof createdAt === 'string' ? createdAt : null };
  }
  const { input, webhook } = parsed.data;
  return {
    readable: true,
    id: parsed.data.id,
    status: parsed.data.status,
    created_at: parsed.data.created_at,
    model: parsed.data.model ?? null,
    source: parsed.data.source ?? null,
    input: isRecord(input) ? input : null,
    data_removed: parsed.data.data_removed === true,
    webhook: typeof webhook === 'string' ? webhook : null,
  };
}

/**
 * Cancel-After as Replicate's examples write durations ("1m", "5m"): minutes and seconds, e.g.
 * 90 → "1m30s".
 */
export function formatCancelAfter(seconds: number): string {
  if (!Number.isInteger(seconds) || seconds < 1) throw new RangeError(`Cancel-After must be whole seconds >= 1, got ${seconds}`);
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return `${minutes > 0 ? `${minutes}m` : ''}${rest > 0 ? `${rest}s` : ''}`;
}

export const ZModel = z.looseObject({
  owner: z.string(),
  name: z.string(),
  latest_version: z.looseObject({ id: z.string().nullish(), openapi_schema: z.unknown() }).nullish(),
});
