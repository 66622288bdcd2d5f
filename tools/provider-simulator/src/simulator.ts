/**
 * A real HTTP server speaking the subset of Replicate's API the worker uses (predictions create,
 * get, cancel, list; model schema), with signed webhooks, real output images and a control API
 * (/__sim/...) for scripting faults in tests. Everything lives in memory.
 *
 * By default (strict mode) it gives only what Replicate documents: the documented prediction
 * fields, webhooks filtered and retried as documented, inputs and outputs removed an hour after
 * completion, creation throttled per minute. Lenient mode also echoes `webhook` and
 * `webhook_events_filter` in prediction objects; nothing in production may rely on that.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { createRateLimiter, throttledBody } from './create-rate-limit';
import { PERMANENT_FAILURE_ERROR, RETRYABLE_FAILURE_ERROR, ZFaultList } from './faults';
import type { FaultName, FaultSpec } from './faults';
import { readJsonBody, RequestBodyError, sendJson, sendProblem } from './http-helpers';
import { decodeCursor, listPage } from './list-pagination';
import { modelDocument, SIMULATED_VERSION_ID, ZModelInput } from './model-document';
import type { ModelInput } from './model-document';
import { CONTENT_TYPES, OUTPUT_SIZES, memoizedRenderer, wrongSizeFor } from './output-image';
import type { AspectRatio, OutputFormat } from './output-image';
import { predictionDocument } from './prediction-document';
import type { SimulatorMode } from './prediction-document';
import { createWebhookSender, newWebhookId } from './webhook-delivery';
import type { WebhookDeliveryAttempt, WebhookEvent } from './webhook-delivery';

export type { FaultName, FaultSpec } from './faults';
export type { SimulatorMode } from './prediction-document';
export type { WebhookDeliveryAttempt, WebhookEvent } from './webhook-delivery';

export type SimPredictionStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'aborted';

export interface SimPrediction {
  id: string;
  model: string;
  version: string;
  /** Exactly as the creator sent it (defaults are not filled in), {} once removed; null for some foreign runs. */
  input: Record<string, unknown> | null;
  status: SimPredictionStatus;
  output: string[] | null;
  /** Any other JSON output (foreign predictions of other models); served instead of `output`. */
  outputJson?: unknown;
  /** How it was created: 'web' for runs from the website. */
  source: 'api' | 'web';
  /** Epoch ms from which the list shows it (Replicate does not promise to list a new prediction at once). */
  listedFrom: number;
  error: string | null;
  logs: string;
  /** True once input, output, logs and files are removed (dataRetentionMs after completion). */
  data_removed: boolean;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  /** Internal: never in a public prediction object in strict mode. */
  webhook: string | null;
  /** Internal: as requested ([] = not given, i.e. Replicate's default). */
  webhook_events_filter: WebhookEvent[];
  metrics: Record<string, number>;
  /** Creation order; list pagination and cursors use it. */
  seq: number;
  fault: FaultSpec | null;
  deliveries: WebhookDeliveryAttempt[];
}

export type OutputFile =
  | { kind: 'bytes'; contentType: string; data: Buffer }
  /** Streamed without Content-Length: `prefix`, then filler up to totalBytes. */
  | { kind: 'oversize'; contentType: string; prefix: Buffer; totalBytes: number };

export interface SimulatorState {
  /** What this simulator's token bought: every prediction a create call made. */
  predictions: Map<string, SimPrediction>;
  /** The rest of the account (other models, tokens, website runs): listed and readable, never ours. */
  foreign: Map<string, SimPrediction>;
  /** Faults waiting for the next creations, in order. */
  faults: FaultSpec[];
  files: Map<string, OutputFile>;
}

export interface ProviderSimulatorOptions {
  /** 'strict' (default): only documented fields; 'lenient': also echo webhook fields. */
  mode?: SimulatorMode;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Loopback only; default 127.0.0.1. */
  host?: string;
  token: string;
  /** whsec_... secret the completion webhooks are signed with. */
  webhookSigningSecret: string;
  /** Creation to completion; default 300 ms. */
  completionDelayMs?: number;
  /** Completion delay of the `slow` fault; default 5 000 ms. */
  slowCompletionDelayMs?: number;
  /** Base of output file URLs (default: the simulator's origin). */
  outputFetchBaseUrl?: string;
  /** Models served as `owner/name`; default ['openai/gpt-image-2']. */
  models?: string[];
  /** Page size of GET /predictions; default 100 (Replicate's). */
  listPageSize?: number;
  /**
   * Waits between redeliveries of a terminal (`completed`) webhook; its length is the number of
   * redeliveries. The default backs off exponentially so that the last retry goes out about a
   * minute after completion, as Replicate documents; tests pass a short schedule.
   */
  webhookRetryDelaysMs?: number[];
  webhookTimeoutMs?: number;
  /** Completion to removal of input, output, logs and files; default one hour (Replicate's). */
  dataRetentionMs?: number;
  /** Accepted create requests per sliding minute; default 600 (Replicate's documented limit). */
  createLimitPerMinute?: number;
  /** Accepted get, list and cancel requests per sliding minute, together; default 3000 (Replicate's). */
  readLimitPerMinute?: number;
  /**
   * The simulator only calls back to and downloads from loopback hosts unless this is true, so
   * a test or a misconfigured local stack can never send a signed callback or a request to a
   * real host.
   */
  allowExternalUrls?: boolean;
}

export interface CompleteOverride {
  status?: 'succeeded' | 'failed' | 'aborted';
  error?: string;
}

export interface ProviderSimulator {
  /** API base, e.g. http://127.0.0.1:4200/v1 (PROVIDER_API_BASE_URL). */
  url: string;
  origin: string;
  mode: SimulatorMode;
  state: SimulatorState;
  enqueueFaults(faults: (FaultName | FaultSpec)[]): void;
  /** While set, GET /v1/predictions answers this HTTP status; null ends the outage. */
  setListOutage(status: number | null): void;
  /** Removes a prediction's input, output, logs and files now, as the retention clock would. */
  removeData(id: string): SimPrediction;
  /** Forgets predictions, files and queued faults; stops pending timers and webhooks. */
  reset(): void;
  /** Completes a prediction now (default succeeded), even one under never_complete. */
  completePrediction(id: string, override?: CompleteOverride): Promise<SimPrediction>;
  /** Resolves when no webhook delivery or output preparation is in flight. */
  settle(): Promise<void>;
  stop(): Promise<void>;
}

/** Replicate: "several times on an exponential backoff", the final retry about a minute after completion. */
export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 29_000];
/** Replicate: "By default, Replicate sends requests ... whenever there are new outputs or the prediction has finished." */
const DEFAULT_WEBHOOK_EVENTS: readonly WebhookEvent[] = ['output', 'completed'];
const OVERSIZE_BYTES = 21 * 1024 * 1024;
const MAX_INPUT_IMAGE_BYTES = 50 * 1024 * 1024;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

/** `list_lag` without a delay: longer than the worker's old 120 s recovery grace. */
const DEFAULT_LIST_LAG_MS = 150_000;
const FOREIGN_MODELS = ['black-forest-labs/flux-schnell', 'meta/meta-llama-3-8b-instruct', 'openai/whisper'] as const;

/**
 * Cancel-After as Replicate's examples write it ("1m", "5m"), read the way Go durations are:
 * one or more number+unit parts (h, m, s, ms). Null when unreadable.
 */
export function parseCancelAfter(value: string): number | null {
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };
  if (!/^(\d+(\.\d+)?(h|ms|m|s))+$/.test(value)) return null;
  let total = 0;
  for (const [, amount, , unit] of value.matchAll(/(\d+(\.\d+)?)(h|ms|m|s)/g)) total += Number(amount) * (units[unit as string] as number);
  return total > 0 ? Math.round(total) : null;
}

const ZCreateBody = z.looseObject({
  version: z.string().min(1).optional(),
  input: z.record(z.string(), z.unknown()),
  webhook: z.url({ protocol: /^https?$/ }).optional(),
  webhook_events_filter: z.array(z.enum(['start', 'output', 'logs', 'completed'])).optional(),
});

interface Runtime {
  /** The validated input with the model's defaults, kept apart from the echoed (removable) one. */
  input: ModelInput;
  timers: Set<NodeJS.Timeout>;
  prepared: Promise<string[]> | null;
  fileIds: string[];
}

export function isLoopbackUrl(value: string): boolean {
  const host = new URL(value).hostname;
  return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

function randomId(length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let id = '';
  for (const byte of randomBytes(length)) id += alphabet[byte % alphabet.length];
  return id;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function isTerminal(status: SimPredictionStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'canceled' || status === 'aborted';
}

async function fetchInputImage(url: string): Promise<Buffer> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(15_000) });
  } catch (cause) {
    throw new Error(`Failed to download input image: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  if (!response.ok) throw new Error(`Failed to download input image (HTTP ${response.status})`);
  const data = Buffer.from(await response.arrayBuffer());
  if (data.length > MAX_INPUT_IMAGE_BYTES) throw new Error('Failed to load input image: larger than 50 MiB');
  return data;
}

export async function startProviderSimulator(options: ProviderSimulatorOptions): Promise<ProviderSimulator> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK_HOSTS.has(host)) throw new Error(`provider simulator binds to loopback only, not ${host}`);
  if (!options.token) throw new Error('provider simulator needs a token');
  const completionDelayMs = options.completionDelayMs ?? 300;
  const slowCompletionDelayMs = options.slowCompletionDelayMs ?? 5_000;
  const models = new Set(options.models ?? ['openai/gpt-image-2']);
  const mode = options.mode ?? 'strict';
  const listPageSize = options.listPageSize ?? 100;
  if (!Number.isInteger(listPageSize) || listPageSize < 1) throw new Error('listPageSize must be a positive integer');
  const retryDelaysMs = options.webhookRetryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS;
  const webhookTimeoutMs = options.webhookTimeoutMs ?? 10_000;
  const dataRetentionMs = options.dataRetentionMs ?? 60 * 60_000;
  const createLimiter = createRateLimiter(options.createLimitPerMinute ?? 600);
  const readLimiter = createRateLimiter(options.readLimitPerMinute ?? 3_000);
  let readThrottlesLeft = 0;
  const deliver = createWebhookSender(options.webhookSigningSecret);
  const render = memoizedRenderer();
  const tokenDigest = digest(`Bearer ${options.token}`);
  const startedAt = new Date().toISOString();

  const state: SimulatorState = { predictions: new Map(), foreign: new Map(), faults: [], files: new Map() };
  const runtimes = new Map<string, Runtime>();
  const background = new Set<Promise<unknown>>();
  let lifecycle = new AbortController();
  let seq = 0;
  let origin = '';
  let apiUrl = '';
  let listOutageStatus: number | null = null;

  /** Keeps background work visible to settle() and stop(); `quiet` for expected rejections. */
  function track<T>(promise: Promise<T>, quiet = false): Promise<T> {
    const tracked = promise.catch((error: unknown) => {
      if (!quiet) process.stderr.write(`provider-simulator: background task failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      return undefined;
    });
    background.add(tracked);
    void tracked.finally(() => background.delete(tracked));
    return promise;
  }

  function schedule(prediction: SimPrediction, delayMs: number, run: () => void): void {
    const runtime = runtimes.get(prediction.id);
    if (!runtime) return;
    const timer = setTimeout(() => {
      runtime.timers.delete(timer);
      run();
    }, delayMs);
    runtime.timers.add(timer);
  }

  function clearTimers(id: string): void {
    const runtime = runtimes.get(id);
    if (!runtime) return;
    for (const timer of runtime.timers) clearTimeout(timer);
    runtime.timers.clear();
  }

  function publicJson(p: SimPrediction) {
    return predictionDocument(p, { apiUrl, origin, mode });
  }

  /** no_webhook loses every event unless told which; any other fault loses only those it names. */
  function lostEvents(fault: FaultSpec | null, event: WebhookEvent): WebhookEvent[] {
    if (fault?.name === 'no_webhook') return fault.events ?? [event];
    return fault?.events ?? [];
  }

  function wantsWebhook(p: SimPrediction, event: WebhookEvent): p is SimPrediction & { webhook: string } {
    if (!p.webhook) return false;
    const filter = p.webhook_events_filter.length > 0 ? p.webhook_events_filter : DEFAULT_WEBHOOK_EVENTS;
    if (!filter.includes(event)) return false;
    return !lostEvents(p.fault, event).includes(event);
  }

  /** Sends the prediction as it is now; only `completed` is redelivered ("We do not retry any webhooks for intermediate states"). */
  function sendWebhook(p: SimPrediction, event: WebhookEvent): void {
    if (!wantsWebhook(p, event)) return;
    const url = p.webhook;
    const webhookId = newWebhookId();
    const body = JSON.stringify(publicJson(p));
    const predictionStatus = p.status;
    const duplicated = event === 'completed' && (p.fault?.name === 'duplicate_webhook' || p.fault?.name === 'duplicate_webhook_new_id');
    const copies = duplicated ? 2 : 1;
    const signal = lifecycle.signal;
    track(
      (async () => {
        for (let copy = 0; copy < copies; copy += 1) {
          await deliver({
            event,
            url,
            // "Identical webhooks can be sent more than once": as a redelivery (same id) or anew.
            webhookId: copy > 0 && p.fault?.name === 'duplicate_webhook_new_id' ? newWebhookId() : webhookId,
            body,
            predictionStatus,
            retryDelaysMs: event === 'completed' ? retryDelaysMs : [],
            timeoutMs: webhookTimeoutMs,
            record: (attempt) => p.deliveries.push(attempt),
            signal,
          });
        }
      })(),
    );
  }

  /** Replicate removes API predictions' input, output, logs and files (by default an hour after completion). */
  function removeData(p: SimPrediction): void {
    p.data_removed = true;
    p.input = {};
    p.output = null;
    p.logs = '';
    for (const fileId of runtimes.get(p.id)?.fileIds ?? []) state.files.delete(fileId);
  }

  function completed(p: SimPrediction): void {
    p.completed_at = new Date().toISOString();
    sendWebhook(p, 'completed');
    schedule(p, dataRetentionMs, () => removeData(p));
  }

  async function prepareOutput(p: SimPrediction, input: ModelInput): Promise<string[]> {
    const source = await fetchInputImage(input.input_images[0] as string);
    const format = input.output_format as OutputFormat;
    const aspect = input.aspect_ratio as AspectRatio;
    const size = p.fault?.name === 'wrong_aspect_ratio' ? wrongSizeFor(aspect) : OUTPUT_SIZES[aspect];
    let image: Buffer;
    try {
      image = await render({ input: source, ...size, format, compression: input.output_compression });
    } catch (cause) {
      throw new Error('Failed to load input image: the file is not a supported image', { cause });
    }
    const contentType = CONTENT_TYPES[format];
    let file: OutputFile;
    switch (p.fault?.name) {
      case 'truncated_output':
        file = { kind: 'bytes', contentType, data: image.subarray(0, Math.floor(image.length * 0.6)) };
        break;
      case 'non_image_output':
        file = { kind: 'bytes', contentType, data: Buffer.from('<html><body><h1>502 Bad Gateway</h1></body></html>\n') };
        break;
      case 'oversize_output':
        file = { kind: 'oversize', contentType, prefix: image, totalBytes: OVERSIZE_BYTES };
        break;
      default:
        file = { kind: 'bytes', contentType, data: image };
    }
    const fileId = randomId(24);
    state.files.set(fileId, file);
    runtimes.get(p.id)?.fileIds.push(fileId);
    const base = (options.outputFetchBaseUrl ?? origin).replace(/\/+$/, '');
    return [`${base}/files/${fileId}.${format}`];
  }

  function startProcessing(p: SimPrediction): void {
    const runtime = runtimes.get(p.id);
    if (!runtime || p.status !== 'starting') return;
    p.status = 'processing';
    p.started_at = new Date().toISOString();
    if (!p.data_removed) p.logs = 'Editing image...\n';
    sendWebhook(p, 'logs');
    // A failed preparation (e.g. unreachable input image) is reported by finish() as a failed
    // prediction, so it is tracked quietly; the catch keeps Node from calling it unhandled.
    runtime.prepared = track(prepareOutput(p, runtime.input), true);
    runtime.prepared.catch(() => undefined);
  }

  /** Replicate: "aborted if the deadline is reached before it starts running, and canceled if ... while it's running". */
  function deadlineReached(p: SimPrediction): void {
    if (isTerminal(p.status)) return;
    clearTimers(p.id);
    p.status = p.status === 'starting' ? 'aborted' : 'canceled';
    if (!p.data_removed) p.logs += 'Prediction deadline reached.\n';
    completed(p);
  }

  /** The rest of the account, created now: what a real token's list holds besides our purchases. */
  function addForeignPredictions(ourModel: string): void {
    const now = new Date().toISOString();
    const base = (extra: Partial<SimPrediction>): SimPrediction => {
      seq += 1;
      return {
        id: randomId(26),
        model: FOREIGN_MODELS[0],
        version: SIMULATED_VERSION_ID,
        input: { prompt: 'a lighthouse at dusk' },
        status: 'succeeded',
        output: [`${origin}/files/foreign-${seq}.webp`],
        source: 'api',
        listedFrom: Date.now(),
        error: null,
        logs: '',
        data_removed: false,
        created_at: now,
        started_at: now,
        completed_at: now,
        webhook: null,
        webhook_events_filter: [],
        metrics: {},
        seq,
        fault: null,
        deliveries: [],
        ...extra,
      };
    };
    for (const p of [
      base({}),
      base({ model: FOREIGN_MODELS[1], output: null, outputJson: { text: 'Hello', usage: { tokens: 3 } } }),
      base({ model: FOREIGN_MODELS[2], input: null, output: null, status: 'failed', error: 'no audio' }),
      base({ data_removed: true, input: {}, output: null }),
      // Someone on the website, with our model and settings but their own photo.
      base({ model: ourModel, source: 'web', input: { prompt: 'Stage this room', input_images: ['https://example.com/room.jpg'] } }),
    ]) {
      state.foreign.set(p.id, p);
    }
  }

  async function finish(p: SimPrediction, override: CompleteOverride = {}): Promise<void> {
    if (isTerminal(p.status)) return;
    clearTimers(p.id);
    if (p.status === 'starting') startProcessing(p);
    const runtime = runtimes.get(p.id);
    let output: string[] | null = null;
    let error: string | null = null;
    const wanted = override.status ?? (p.fault?.name === 'fail' || p.fault?.name === 'fail_permanent' ? 'failed' : 'succeeded');
    if (wanted === 'succeeded') {
      try {
        output = await (runtime?.prepared ?? Promise.resolve(null));
      } catch (cause) {
        error = cause instanceof Error ? cause.message : String(cause);
      }
    }
    // A cancel, reset or a concurrent finish may have won while the output was being prepared.
    if (isTerminal(p.status) || state.predictions.get(p.id) !== p) return;
    const now = new Date();
    if (wanted === 'succeeded' && error === null) {
      p.output = output;
      // The new output is an `output` event while the prediction is still processing.
      sendWebhook(p, 'output');
      p.status = 'succeeded';
      p.logs += 'Done.\n';
    } else if (wanted === 'aborted') {
      p.status = 'aborted';
    } else {
      p.status = 'failed';
      p.error = error ?? override.error ?? (p.fault?.name === 'fail_permanent' ? PERMANENT_FAILURE_ERROR : RETRYABLE_FAILURE_ERROR);
    }
    // Data removed while running (control API) stays removed.
    if (p.data_removed) removeData(p);
    const started = p.started_at ? Date.parse(p.started_at) : now.getTime();
    p.metrics = { predict_time: (now.getTime() - started) / 1000, total_time: (now.getTime() - Date.parse(p.created_at)) / 1000 };
    completed(p);
  }

  function resolveModel(modelFromPath: string | null, version: string | undefined): { model: string } | { problem: string } {
    if (modelFromPath) {
      return models.has(modelFromPath) ? { model: modelFromPath } : { problem: 'not_found' };
    }
    if (!version) return { problem: 'version is required' };
    const [name, versionId] = version.split(':');
    if (name && name.includes('/')) {
      if (!models.has(name) || (versionId !== undefined && versionId !== SIMULATED_VERSION_ID)) return { problem: 'Invalid version or not permitted' };
      return { model: name };
    }
    if (version === SIMULATED_VERSION_ID) return { model: [...models][0] as string };
    return { problem: 'Invalid version or not permitted' };
  }

  async function handleCreate(request: IncomingMessage, response: ServerResponse, modelFromPath: string | null): Promise<void> {
    const raw = await readJsonBody(request);
    // Replicate throttles before it looks at the request; a throttled create buys nothing.
    const rate = createLimiter.take();
    if (!rate.allowed) return sendJson(response, 429, throttledBody(rate.resetsInSeconds));
    const cancelAfterHeader = request.headers['cancel-after'];
    const cancelAfterMs = typeof cancelAfterHeader === 'string' ? parseCancelAfter(cancelAfterHeader.trim()) : null;
    if (typeof cancelAfterHeader === 'string' && cancelAfterMs === null) {
      return sendProblem(response, 400, 'Invalid Cancel-After', 'Cancel-After must be a duration such as 30s, 5m or 1h');
    }
    const body = ZCreateBody.safeParse(raw);
    if (!body.success) {
      return sendProblem(response, 422, 'Invalid request', body.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    }
    const resolved = resolveModel(modelFromPath, body.data.version);
    if ('problem' in resolved) {
      if (resolved.problem === 'not_found') return sendProblem(response, 404, 'Not found', 'The requested resource could not be found.');
      return sendProblem(response, 422, 'Invalid version', resolved.problem);
    }
    const input = ZModelInput.safeParse(body.data.input);
    if (!input.success) {
      const invalid = input.error.issues.map((issue) => ({ type: issue.code, field: ['input', ...issue.path].join('.'), description: issue.message }));
      return sendProblem(response, 422, 'Input validation failed', invalid.map((f) => `- ${f.field}: ${f.description}`).join('\n'), {
        invalid_fields: invalid,
      });
    }
    if (!options.allowExternalUrls) {
      const external = [body.data.webhook, ...input.data.input_images].filter((url): url is string => url !== undefined && !isLoopbackUrl(url));
      if (external.length > 0) {
        return sendProblem(response, 422, 'Input validation failed', 'webhook and input_images must point at loopback hosts (provider simulator)');
      }
    }
    const fault = state.faults.shift() ?? null;
    if (fault?.name === 'http_500') return sendProblem(response, 500, 'Internal Server Error', 'Internal server error (simulated)');
    if (fault?.name === 'http_429') return sendJson(response, 429, throttledBody(fault.retryAfterSeconds ?? 1));
    if (fault?.name === 'throttle_reads') readThrottlesLeft += fault.count ?? 3;
    if (fault?.name === 'foreign_predictions') addForeignPredictions(resolved.model);
    const listLagMs = fault?.listLagMs ?? (fault?.name === 'list_lag' ? DEFAULT_LIST_LAG_MS : 0);
    seq += 1;
    const prediction: SimPrediction = {
      id: randomId(26),
      model: resolved.model,
      version: SIMULATED_VERSION_ID,
      input: body.data.input,
      status: 'starting',
      output: null,
      source: 'api',
      listedFrom: Date.now() + listLagMs,
      error: null,
      logs: '',
      data_removed: false,
      created_at: new Date().toISOString(),
      started_at: null,
      completed_at: null,
      webhook: body.data.webhook ?? null,
      webhook_events_filter: body.data.webhook_events_filter ?? [],
      metrics: {},
      seq,
      fault,
      deliveries: [],
    };
    state.predictions.set(prediction.id, prediction);
    runtimes.set(prediction.id, { input: input.data, timers: new Set(), prepared: null, fileIds: [] });
    const delay = fault?.delayMs ?? (fault?.name === 'slow' ? slowCompletionDelayMs : completionDelayMs);
    schedule(prediction, Math.min(50, Math.floor(delay / 4)), () => startProcessing(prediction));
    if (fault?.name !== 'never_complete') schedule(prediction, delay, () => void track(finish(prediction)));
    if (cancelAfterMs !== null) schedule(prediction, cancelAfterMs, () => deadlineReached(prediction));
    sendWebhook(prediction, 'start');
    if (fault?.name === 'response_lost' || fault?.responseLost === true) {
      // The purchase happened; the caller just never hears about it.
      request.socket.destroy();
      return;
    }
    if (fault?.name === 'http_500_after_create') {
      return sendProblem(response, 500, 'Internal Server Error', 'Internal server error (simulated, after the prediction was created)');
    }
    sendJson(response, 201, publicJson(prediction));
  }

  function handleList(response: ServerResponse, url: URL): void {
    if (listOutageStatus !== null) return sendProblem(response, listOutageStatus, 'Service unavailable', 'Listing predictions is unavailable (simulated outage)');
    const cursorParam = url.searchParams.get('cursor');
    const cursor = cursorParam === null ? null : decodeCursor(cursorParam);
    if (cursorParam !== null && cursor === null) return sendProblem(response, 400, 'Bad request', 'Invalid cursor');
    // "Include only predictions created at or after / before this date-time, in ISO 8601 format."
    const bounds: Record<'created_after' | 'created_before', number | null> = { created_after: null, created_before: null };
    for (const name of ['created_after', 'created_before'] as const) {
      const value = url.searchParams.get(name);
      if (value === null) continue;
      const time = Date.parse(value);
      if (Number.isNaN(time)) return sendProblem(response, 400, 'Bad request', `${name} must be an ISO 8601 date-time`);
      bounds[name] = time;
    }
    const now = Date.now();
    const visible = [...state.predictions.values(), ...state.foreign.values()].filter((p) => {
      const created = Date.parse(p.created_at);
      return (
        p.listedFrom <= now &&
        (bounds.created_after === null || created >= bounds.created_after) &&
        (bounds.created_before === null || created < bounds.created_before)
      );
    });
    const filters = new URLSearchParams();
    for (const name of ['created_after', 'created_before'] as const) {
      const value = url.searchParams.get(name);
      if (value !== null) filters.set(name, value);
    }
    const page = listPage(visible, {
      cursor,
      pageSize: listPageSize,
      urlFor: (value) => `${apiUrl}/predictions?cursor=${value}${filters.size > 0 ? `&${filters.toString()}` : ''}`,
    });
    sendJson(response, 200, { previous: page.previous, next: page.next, results: page.results.map(publicJson) });
  }

  /** A finished prediction is returned unchanged (e.g. still `succeeded`). */
  function handleCancel(response: ServerResponse, prediction: SimPrediction): void {
    if (!isTerminal(prediction.status)) {
      clearTimers(prediction.id);
      prediction.status = 'canceled';
      if (!prediction.data_removed) prediction.logs += 'Prediction canceled.\n';
      // Replicate's "completed" event covers succeeded, failed and canceled.
      completed(prediction);
    }
    sendJson(response, 200, publicJson(prediction));
  }

  function handleFile(response: ServerResponse, name: string): void {
    const file = state.files.get(name.replace(/\.[a-z]+$/, ''));
    if (!file) return sendProblem(response, 404, 'Not found', 'File not found or expired');
    if (file.kind === 'bytes') {
      response.writeHead(200, { 'content-type': file.contentType, 'content-length': file.data.length });
      response.end(file.data);
      return;
    }
    response.writeHead(200, { 'content-type': file.contentType });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const writeMore = () => {
      while (sent < file.totalBytes) {
        const piece = sent === 0 ? file.prefix : chunk.subarray(0, Math.min(chunk.length, file.totalBytes - sent));
        sent += piece.length;
        if (!response.write(piece)) return void response.once('drain', writeMore);
      }
      response.end();
    };
    response.on('close', () => {
      sent = file.totalBytes;
    });
    writeMore();
  }

  async function handleControl(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    // Tests and the chaos audit map predictions to attempts by their callback URL, which only
    // this control view (never the /v1 API in strict mode) shows.
    const internal = (p: SimPrediction) => ({
      ...publicJson(p),
      webhook: p.webhook,
      webhook_events_filter: p.webhook_events_filter,
      fault: p.fault,
      deliveries: p.deliveries,
    });
    if (request.method === 'GET' && path === '/__sim/predictions') {
      const predictions = [...state.predictions.values()].map(internal);
      return sendJson(response, 200, { count: predictions.length, predictions });
    }
    if (request.method === 'GET' && path === '/__sim/faults') return sendJson(response, 200, { queued: state.faults });
    if (request.method === 'POST' && path === '/__sim/faults') {
      const parsed = ZFaultList.safeParse(await readJsonBody(request));
      if (!parsed.success) return sendProblem(response, 400, 'Invalid faults', z.prettifyError(parsed.error));
      state.faults.push(...parsed.data);
      return sendJson(response, 200, { queued: state.faults });
    }
    if (request.method === 'POST' && path === '/__sim/reset') {
      reset();
      return sendJson(response, 200, { reset: true });
    }
    if (request.method === 'POST' && path === '/__sim/list-outage') {
      const parsed = z
        .strictObject({ status: z.int().min(400).max(599).nullable() })
        .optional()
        .safeParse(await readJsonBody(request));
      if (!parsed.success) return sendProblem(response, 400, 'Invalid request', z.prettifyError(parsed.error));
      listOutageStatus = parsed.data === undefined ? 503 : parsed.data.status;
      return sendJson(response, 200, { listOutageStatus });
    }
    const removeDataMatch = /^\/__sim\/predictions\/([^/]+)\/remove-data$/.exec(path);
    if (request.method === 'POST' && removeDataMatch?.[1]) {
      const prediction = state.predictions.get(decodeURIComponent(removeDataMatch[1]));
      if (!prediction) return sendProblem(response, 404, 'Not found', 'No such prediction');
      removeData(prediction);
      return sendJson(response, 200, internal(prediction));
    }
    const complete = /^\/__sim\/predictions\/([^/]+)\/complete$/.exec(path);
    if (request.method === 'POST' && complete?.[1]) {
      const parsed = z
        .strictObject({ status: z.enum(['succeeded', 'failed', 'aborted']).optional(), error: z.string().optional() })
        .optional()
        .safeParse(await readJsonBody(request));
      if (!parsed.success) return sendProblem(response, 400, 'Invalid request', z.prettifyError(parsed.error));
      const prediction = state.predictions.get(decodeURIComponent(complete[1]));
      if (!prediction) return sendProblem(response, 404, 'Not found', 'No such prediction');
      await completePrediction(prediction.id, parsed.data ?? {});
      return sendJson(response, 200, internal(prediction));
    }
    sendProblem(response, 404, 'Not found', 'Unknown control endpoint');
  }

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', origin);
    const path = url.pathname;
    if (path.startsWith('/__sim/')) return handleControl(request, response, path);
    const file = /^\/files\/([A-Za-z0-9._-]+)$/.exec(path);
    if (file?.[1] && request.method === 'GET') return handleFile(response, file[1]);
    if (!path.startsWith('/v1/')) return sendProblem(response, 404, 'Not found', 'The requested resource could not be found.');

    const presented = request.headers.authorization ?? '';
    if (!timingSafeEqual(digest(presented), tokenDigest)) {
      return sendProblem(response, 401, 'Unauthenticated', 'You did not pass a valid authentication token');
    }
    const api = path.slice('/v1'.length);
    const method = request.method ?? 'GET';
    // Gets, lists and cancels share one per-account limit, apart from creates.
    const isRead = (api === '/predictions' && method === 'GET') || /^\/predictions\/[^/]+(\/cancel)?$/.test(api);
    if (isRead) {
      if (readThrottlesLeft > 0) {
        readThrottlesLeft -= 1;
        return sendJson(response, 429, throttledBody(1));
      }
      const rate = readLimiter.take();
      if (!rate.allowed) return sendJson(response, 429, throttledBody(rate.resetsInSeconds));
    }
    if (api === '/predictions') {
      if (method === 'POST') return handleCreate(request, response, null);
      if (method === 'GET') return handleList(response, url);
    }
    const modelPredictions = /^\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(api);
    if (modelPredictions?.[1] && modelPredictions[2] && method === 'POST') {
      return handleCreate(request, response, `${decodeURIComponent(modelPredictions[1])}/${decodeURIComponent(modelPredictions[2])}`);
    }
    const model = /^\/models\/([^/]+)\/([^/]+)$/.exec(api);
    if (model?.[1] && model[2] && method === 'GET') {
      const owner = decodeURIComponent(model[1]);
      const name = decodeURIComponent(model[2]);
      if (!models.has(`${owner}/${name}`)) return sendProblem(response, 404, 'Not found', 'The requested resource could not be found.');
      return sendJson(response, 200, modelDocument({ owner, name, apiUrl, createdAt: startedAt }));
    }
    const prediction = /^\/predictions\/([^/]+)(\/cancel)?$/.exec(api);
    if (prediction?.[1]) {
      const id = decodeURIComponent(prediction[1]);
      const found = state.predictions.get(id) ?? state.foreign.get(id);
      const isCancel = prediction[2] !== undefined;
      if ((isCancel && method !== 'POST') || (!isCancel && method !== 'GET')) {
        return sendProblem(response, 405, 'Method not allowed', `${method} is not allowed here`);
      }
      if (!found) return sendProblem(response, 404, 'Not found', 'The requested resource could not be found.');
      return isCancel ? handleCancel(response, found) : sendJson(response, 200, publicJson(found));
    }
    sendProblem(response, 404, 'Not found', 'The requested resource could not be found.');
  }

  function reset(): void {
    lifecycle.abort();
    lifecycle = new AbortController();
    for (const id of runtimes.keys()) clearTimers(id);
    runtimes.clear();
    state.predictions.clear();
    state.foreign.clear();
    state.files.clear();
    state.faults.length = 0;
    listOutageStatus = null;
    readThrottlesLeft = 0;
    createLimiter.reset();
    readLimiter.reset();
  }

  function predictionOrThrow(id: string): SimPrediction {
    const prediction = state.predictions.get(id);
    if (!prediction) throw new Error(`no prediction ${id}`);
    return prediction;
  }

  async function completePrediction(id: string, override: CompleteOverride = {}): Promise<SimPrediction> {
    const prediction = predictionOrThrow(id);
    await track(finish(prediction, override));
    return prediction;
  }

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      if (response.headersSent) return void response.destroy();
      if (error instanceof RequestBodyError) return sendProblem(response, error.status, 'Bad request', error.message);
      process.stderr.write(`provider-simulator: ${error instanceof Error ? error.stack : String(error)}\n`);
      sendProblem(response, 500, 'Internal Server Error', 'Simulator error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  apiUrl = `${origin}/v1`;

  async function settle(): Promise<void> {
    while (background.size > 0) await Promise.allSettled([...background]);
  }

  return {
    url: apiUrl,
    origin,
    mode,
    state,
    enqueueFaults(faults) {
      state.faults.push(...ZFaultList.parse(faults));
    },
    setListOutage(status) {
      listOutageStatus = status;
    },
    removeData(id) {
      const prediction = predictionOrThrow(id);
      removeData(prediction);
      return prediction;
    },
    reset,
    completePrediction,
    settle,
    async stop() {
      reset();
      await settle();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
