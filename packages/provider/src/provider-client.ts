/**
 * HTTP client for the Replicate predictions API (and the local provider simulator, which speaks the
 * same API). Nothing here reads the environment: the worker passes base URL and token in.
 *
 * Creation uses POST /models/{owner}/{name}/predictions (the endpoint Replicate documents for
 * official models, which have no pinned version hash); see docs/decisions/provider.md "Prediction
 * creation endpoint".
 */
import { z } from 'zod';
import { readListLink } from './list-link';
import { readInputConstraints } from './model-schema';
import type { ModelInfo } from './model-schema';

export type { ModelInfo } from './model-schema';

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
  /** A `next` URL of an earlier page of this client (on the API's list, however spelled). */
  next?: string | null;
  /** Replicate's `created_after` filter (inclusive). Ignored when `next` is given: it carries it. */
  createdAfter?: Date;
  /** Replicate's `created_before` filter (exclusive). Ignored when `next` is given. */
  createdBefore?: Date;
}

export type ProviderErrorKind = 'throttled' | 'server' | 'network' | 'auth' | 'invalid' | 'not_found';

export type ProviderOperation = 'createPrediction' | 'getPrediction' | 'cancelPrediction' | 'listPredictions' | 'getModel';

const AUTH_MESSAGE =
  'provider rejected the API token or organization (HTTP 401/403): check PROVIDER_API_TOKEN on the worker';

/**
 * Every failure of a provider call. Messages never contain the token or request URLs with query
 * strings, so the error can be logged and sent to the error tracker as is.
 *
 * A `network` error from createPrediction is ambiguous: the provider may have created (and will
 * bill) the prediction. Recover it with prediction-recovery.ts before creating again.
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly kind: ProviderErrorKind;
  readonly operation: ProviderOperation;
  /** HTTP status when the provider answered, undefined for network failures. */
  readonly status: number | undefined;
  /** Seconds the provider asked us to wait (429 only). */
  readonly retryAfterSeconds: number | undefined;

  constructor(options: {
    kind: ProviderErrorKind;
    operation: ProviderOperation;
    message: string;
    status?: number;
    retryAfterSeconds?: number;
    cause?: unknown;
  }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = options.kind;
    this.operation = options.operation;
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** True for failures that may succeed when repeated later: throttling, 5xx and transport errors. */
export function isRetryableProviderError(error: unknown): boolean {
  return error instanceof ProviderError && (error.kind === 'throttled' || error.kind === 'server' || error.kind === 'network');
}

/** Signed URLs must not reach logs (docs/system.md 6): keep scheme, host and path of any URL, drop the rest. */
export function redactUrls(text: string): string {
  return text.replace(/\b(https?:\/\/[^\s?#"'<>]*)[?#][^\s"'<>]*/g, '$1?[redacted]');
}

function kindForStatus(status: number): ProviderErrorKind {
  if (status === 429) return 'throttled';
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status >= 500) return 'server';
  // 400, 409, 422 and any other client error: the request itself is wrong, repeating it won't help.
  return 'invalid';
}

/**
 * Retry-After may be delta-seconds or an HTTP date. Replicate sends no such header and states the
 * wait only in the body: "Request was throttled. Your rate limit resets in ~30s." (its rate-limits
 * page today) or, in older wording, "Request was throttled. Expected available in 2 seconds.".
 */
export function parseRetryAfterSeconds(header: string | null, detail: string | undefined, now: Date = new Date()): number | undefined {
  if (header !== null && header.trim() !== '') {
    const value = header.trim();
    if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value));
    const date = Date.parse(value);
    if (!Number.isNaN(date)) return Math.max(0, Math.ceil((date - now.getTime()) / 1000));
  }
  const match = detail?.match(/available in (\d+(?:\.\d+)?) second/i) ?? detail?.match(/resets in ~?\s*(\d+(?:\.\d+)?)\s*s\b/i);
  return match?.[1] === undefined ? undefined : Math.ceil(Number(match[1]));
}

function detailOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  const detail = record['detail'] ?? record['title'];
  if (typeof detail === 'string') return detail;
  return detail === undefined ? undefined : JSON.stringify(detail);
}

// fetch errors come from undici's realm, so `instanceof Error` is unreliable (e.g. under Jest's VM).
function errorName(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string'
    ? (value as { name: string }).name
    : undefined;
}

/** "fetch failed" alone says nothing; the cause carries e.g. ECONNREFUSED or "other side closed". */
function describeTransportError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 3 && typeof current === 'object' && current !== null; depth += 1) {
    const { message, code } = current as { message?: unknown; code?: unknown };
    if (typeof message === 'string' && message !== '') parts.push(message);
    if (typeof code === 'string' && !parts.includes(code)) parts.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return redactUrls(parts.length > 0 ? parts.join(': ') : String(error));
}

export interface ProviderClientOptions {
  /** API base including the version prefix, e.g. https://api.replicate.com/v1. */
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
  /** Per-request timeout; default 30 s. */
  timeoutMs?: number;
  /**
   * Called with every answer's `Date` header (RFC 9110 6.6.1, whole seconds) and our clock when the
   * request left and when the answer's headers arrived, to measure the provider's clock.
   */
  onResponseDate?: (observation: ResponseDateObservation) => void;
}

export interface ResponseDateObservation {
  date: string;
  sentAtMs: number;
  receivedAtMs: number;
}

export interface ProviderClient {
  createPrediction(input: CreatePredictionInput): Promise<Prediction>;
  getPrediction(id: string): Promise<Prediction>;
  cancelPrediction(id: string): Promise<Prediction>;
  listPredictions(options?: ListPredictionsOptions): Promise<PredictionPage>;
  getModel(owner: string, name: string): Promise<ModelInfo>;
}

const ZPredictionPage = z.looseObject({ results: z.array(z.unknown()), next: z.string().nullish() });

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

/** Reads one list entry; anything unexpected makes that entry unreadable, never the page. */
export function readListEntry(value: unknown): ListedPrediction | UnreadableListEntry {
  const parsed = ZListedPrediction.safeParse(value);
  if (!parsed.success) {
    const createdAt = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['created_at'] : undefined;
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
    input: typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : null,
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

const ZModel = z.looseObject({
  owner: z.string(),
  name: z.string(),
  latest_version: z.looseObject({ id: z.string().nullish(), openapi_schema: z.unknown() }).nullish(),
});

function splitModel(model: string): [string, string] {
  const match = /^([^/\s:]+)\/([^/\s:]+)$/.exec(model);
  if (!match?.[1] || !match[2]) throw new Error(`model must be "owner/name", got "${model}"`);
  return [match[1], match[2]];
}

export function createProviderClient(options: ProviderClientOptions): ProviderClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;

  async function request(
    operation: ProviderOperation,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<unknown> {
    const headers: Record<string, string> = { ...extraHeaders, Authorization: `Bearer ${options.token}`, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    let text: string;
    const sentAtMs = Date.now();
    try {
      response = await doFetch(`${baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
      const date = response.headers.get('date');
      if (date !== null) options.onResponseDate?.({ date, sentAtMs, receivedAtMs: Date.now() });
      text = await response.text();
    } catch (cause) {
      const reason = errorName(cause) === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : `request failed: ${describeTransportError(cause)}`;
      throw new ProviderError({ kind: 'network', operation, message: `provider ${operation} ${reason}`, cause });
    }
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!response.ok) {
      const kind = kindForStatus(response.status);
      const detail = detailOf(parsed);
      const message =
        kind === 'auth'
          ? AUTH_MESSAGE
          : `provider ${operation} failed with HTTP ${response.status}${detail ? `: ${redactUrls(detail).slice(0, 500)}` : ''}`;
      throw new ProviderError({
        kind,
        operation,
        message,
        status: response.status,
        retryAfterSeconds: kind === 'throttled' ? parseRetryAfterSeconds(response.headers.get('retry-after'), detail) : undefined,
      });
    }
    return parsed;
  }

  /**
   * The path of a list request. A `next` URL's query (cursor and filters) is kept as the provider
   * wrote it and sent to the configured base URL, never to the link's host: the token stays there.
   */
  function listPath({ next, createdAfter, createdBefore }: ListPredictionsOptions): string {
    if (next) {
      const link = readListLink(next, baseUrl);
      if (link.kind === 'refused') {
        throw new ProviderError({ kind: 'invalid', operation: 'listPredictions', message: 'a next link off the API base URL was given to listPredictions' });
      }
      return `/predictions${link.query}`;
    }
    const query = new URLSearchParams();
    if (createdAfter) query.set('created_after', createdAfter.toISOString());
    if (createdBefore) query.set('created_before', createdBefore.toISOString());
    const text = query.toString();
    return `/predictions${text === '' ? '' : `?${text}`}`;
  }

  function parseOrThrow<T>(operation: ProviderOperation, parse: () => T): T {
    try {
      return parse();
    } catch (cause) {
      // A 2xx with a body we cannot read is the provider's fault and may be transient.
      throw new ProviderError({ kind: 'server', operation, message: `provider ${operation} returned an unexpected response shape`, cause });
    }
  }

  return {
    async createPrediction(input) {
      const [owner, name] = splitModel(input.model);
      const body = {
        input: input.input,
        webhook: input.webhook,
        webhook_events_filter: input.webhookEventsFilter ?? ['completed'],
      };
      const headers: Record<string, string> = input.cancelAfterSeconds === undefined ? {} : { 'Cancel-After': formatCancelAfter(input.cancelAfterSeconds) };
      const json = await request('createPrediction', 'POST', `/models/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/predictions`, body, headers);
      return parseOrThrow('createPrediction', () => parsePrediction(json));
    },
    async getPrediction(id) {
      const json = await request('getPrediction', 'GET', `/predictions/${encodeURIComponent(id)}`);
      return parseOrThrow('getPrediction', () => parsePrediction(json));
    },
    async cancelPrediction(id) {
      const json = await request('cancelPrediction', 'POST', `/predictions/${encodeURIComponent(id)}/cancel`);
      return parseOrThrow('cancelPrediction', () => parsePrediction(json));
    },
    async listPredictions(listOptions = {}) {
      const json = await request('listPredictions', 'GET', listPath(listOptions));
      return parseOrThrow('listPredictions', () => {
        const page = ZPredictionPage.parse(json);
        const results = page.results.map(readListEntry);
        if (!page.next) return { results, next: null };
        const link = readListLink(page.next, baseUrl);
        return link.kind === 'on-api' ? { results, next: page.next } : { results, next: null, refusedNextOrigin: link.origin };
      });
    },
    async getModel(owner, name) {
      const json = await request('getModel', 'GET', `/models/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`);
      return parseOrThrow('getModel', () => {
        const model = ZModel.parse(json);
        return {
          owner: model.owner,
          name: model.name,
          latestVersionId: model.latest_version?.id ?? null,
          input: readInputConstraints(model.latest_version?.openapi_schema),
        };
      });
    },
  };
}
