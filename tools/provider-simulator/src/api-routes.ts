// The Replicate-shaped HTTP API under /v1 (predictions create, get, cancel and list; the model
// document) and the output files the predictions point at.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { throttledBody } from './create-rate-limit';
import type { createRateLimiter } from './create-rate-limit';
import { takeFault } from './faults';
import { foreignPredictions } from './foreign-predictions';
import { readJsonBody, sendJson, sendProblem } from './http-helpers';
import { decodeCursor, listPage } from './list-pagination';
import { modelDocument, SIMULATED_VERSION_ID, ZModelInput } from './model-document';
import type { ModelInput } from './model-document';
import type { PredictionLifecycle, SimulatorAddress } from './prediction-lifecycle';
import { randomId } from './prediction-state';
import type { SimPrediction, SimulatorState } from './prediction-state';
import type { ProviderClock } from './provider-clock';

/** Conditions the control API switches on and off, apart from per-prediction faults. */
export interface SimulatorConditions {
  /** While set, GET /v1/predictions answers this HTTP status. */
  listOutageStatus: number | null;
  /** The next this many get, list and cancel calls answer 429 (the `throttle_reads` fault). */
  readThrottlesLeft: number;
}

export interface ApiContext {
  state: SimulatorState;
  lifecycle: PredictionLifecycle;
  address: SimulatorAddress;
  conditions: SimulatorConditions;
  /** The provider's clock: list filters are given on it. */
  clock: ProviderClock;
  /** Models served as `owner/name`; the first is the one a bare version ID names. */
  models: Set<string>;
  listPageSize: number;
  createLimiter: ReturnType<typeof createRateLimiter>;
  readLimiter: ReturnType<typeof createRateLimiter>;
  tokenDigest: Buffer;
  allowExternalUrls: boolean;
  /** Replicate's "minimum allowed duration is 5 seconds"; lower only in tests. */
  cancelAfterMinimumMs: number;
  startedAt: string;
  /** The next creation order (list pagination sorts on it). */
  nextSeq(): number;
}

/** `list_lag` without a delay: longer than the worker's old 120 s recovery grace. */
const DEFAULT_LIST_LAG_MS = 150_000;

// Replicate's request schemas have `additionalProperties: false`; `version` belongs only to
// POST /predictions (schemas_version_prediction_request), not to the model-scoped route.
const ZModelCreateBody = z.strictObject({
  input: z.record(z.string(), z.unknown()),
  stream: z.boolean().optional(),
  webhook: z.url({ protocol: /^https?$/ }).optional(),
  webhook_events_filter: z.array(z.enum(['start', 'output', 'logs', 'completed'])).optional(),
});
const ZVersionCreateBody = ZModelCreateBody.extend({ version: z.string().min(1) });

export function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function isLoopbackUrl(value: string): boolean {
  const host = new URL(value).hostname;
  return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Cancel-After as Replicate's OpenAPI document defines it: a number of seconds, or parts with the
 * units h, m and s in that order ("30", "90s", "5m", "1h30m45s"). Null when unreadable; Replicate
 * names no other unit, so "500ms" is unreadable too.
 */
export function parseCancelAfter(value: string): number | null {
  if (/^\d+$/.test(value)) return Number(value) * 1_000;
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(value);
  if (!match || value === '') return null;
  const [, hours = '0', minutes = '0', seconds = '0'] = match;
  return ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1_000;
}

/** `Prefer: wait` or `wait=n` (1–60): how long a create may hold the answer; null without one. */
function preferWaitMs(header: string | undefined): number | null | 'invalid' {
  if (header === undefined) return null;
  const match = /^wait(?:=([1-9]|[1-5]\d|60))?$/.exec(header.trim());
  if (!match) return 'invalid';
  return Number(match[1] ?? 60) * 1_000;
}

function resolveModel(ctx: ApiContext, modelFromPath: string | null, version: string | undefined): { model: string } | { problem: string } {
  if (modelFromPath) {
    return ctx.models.has(modelFromPath) ? { model: modelFromPath } : { problem: 'not_found' };
  }
  if (!version) return { problem: 'version is required' };
  const [name, versionId] = version.split(':');
  if (name && name.includes('/')) {
    if (!ctx.models.has(name) || (versionId !== undefined && versionId !== SIMULATED_VERSION_ID)) return { problem: 'Invalid version or not permitted' };
    return { model: name };
  }
  const [defaultModel] = ctx.models;
  if (version === SIMULATED_VERSION_ID && defaultModel !== undefined) return { model: defaultModel };
  return { problem: 'Invalid version or not permitted' };
}

/** The create's Cancel-After and Prefer headers, or undefined once their problem was answered. */
function readCreateHeaders(ctx: ApiContext, request: IncomingMessage, response: ServerResponse): { cancelAfterMs: number | null; waitMs: number | null } | undefined {
  const cancelAfterHeader = request.headers['cancel-after'];
  const cancelAfterMs = typeof cancelAfterHeader === 'string' ? parseCancelAfter(cancelAfterHeader.trim()) : null;
  if (typeof cancelAfterHeader === 'string' && cancelAfterMs === null) {
    sendProblem(response, 400, 'Invalid Cancel-After', 'Cancel-After must be a duration such as 30, 30s, 5m or 1h30m');
    return undefined;
  }
  if (cancelAfterMs !== null && cancelAfterMs < ctx.cancelAfterMinimumMs) {
    sendProblem(response, 400, 'Invalid Cancel-After', `Cancel-After must be at least ${ctx.cancelAfterMinimumMs / 1000}s`);
    return undefined;
  }
  const waitMs = preferWaitMs(typeof request.headers.prefer === 'string' ? request.headers.prefer : undefined);
  if (waitMs === 'invalid') {
    sendProblem(response, 400, 'Invalid Prefer', 'Prefer must be wait or wait=n with n from 1 to 60');
    return undefined;
  }
  return { cancelAfterMs, waitMs };
}

interface CreateBody {
  model: string;
  body: z.infer<typeof ZModelCreateBody>;
  input: ModelInput;
}

/** The create's body with its model and validated input, or undefined once its problem was answered. */
function readCreateBody(ctx: ApiContext, raw: unknown, modelFromPath: string | null, response: ServerResponse): CreateBody | undefined {
  const body = (modelFromPath ? ZModelCreateBody : ZVersionCreateBody).safeParse(raw);
  if (!body.success) {
    sendProblem(response, 422, 'Invalid request', body.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    return undefined;
  }
  // Only the version route's body has `version`; the model route's would have refused one.
  const data: z.infer<typeof ZModelCreateBody> & { version?: string } = body.data;
  const resolved = resolveModel(ctx, modelFromPath, data.version);
  if ('problem' in resolved) {
    if (resolved.problem === 'not_found') sendProblem(response, 404, 'Not found', 'The requested resource could not be found.');
    else sendProblem(response, 422, 'Invalid version', resolved.problem);
    return undefined;
  }
  const input = ZModelInput.safeParse(data.input);
  if (!input.success) {
    const invalid = input.error.issues.map((issue) => ({ type: issue.code, field: ['input', ...issue.path].join('.'), description: issue.message }));
    sendProblem(response, 422, 'Input validation failed', invalid.map((f) => `- ${f.field}: ${f.description}`).join('\n'), {
      invalid_fields: invalid,
    });
    return undefined;
  }
  if (!ctx.allowExternalUrls) {
    const external = [data.webhook, ...input.data.input_images].filter((url): url is string => url !== undefined && !isLoopbackUrl(url));
    if (external.length > 0) {
      sendProblem(response, 422, 'Input validation failed', 'webhook and input_images must point at loopback hosts (provider simulator)');
      return undefined;
    }
  }
  return { model: resolved.model, body: data, input: input.data };
}

/** A prediction just created, `starting`, listed once its fault's list lag has passed. */
function newPrediction(ctx: ApiContext, { model, body }: CreateBody, fault: SimPrediction['fault'], cancelAfterMs: number | null): SimPrediction {
  const listLagMs = fault?.listLagMs ?? (fault?.name === 'list_lag' ? DEFAULT_LIST_LAG_MS : 0);
  // One reading of the clock for the creation, its deadline and its listing: two readings put the
  // deadline a millisecond past created_at + Cancel-After whenever the clock ticked between them.
  const createdAtMs = Date.now();
  return {
    id: randomId(26),
    model,
    version: SIMULATED_VERSION_ID,
    input: body.input,
    status: 'starting',
    output: null,
    source: 'api',
    listedFrom: createdAtMs + listLagMs,
    error: null,
    logs: '',
    data_removed: false,
    created_at: new Date(createdAtMs).toISOString(),
    started_at: null,
    completed_at: null,
    deadline: cancelAfterMs === null ? null : new Date(createdAtMs + cancelAfterMs).toISOString(),
    webhook: body.webhook ?? null,
    webhook_events_filter: body.webhook_events_filter ?? [],
    metrics: {},
    seq: ctx.nextSeq(),
    fault,
    deliveries: [],
  };
}

/** Answers a create that bought a prediction, unless its fault loses or spoils the answer. */
async function answerCreate(ctx: ApiContext, request: IncomingMessage, response: ServerResponse, prediction: SimPrediction, waitMs: number | null): Promise<void> {
  const { fault } = prediction;
  if (fault?.name === 'response_lost' || fault?.responseLost === true) {
    // The purchase happened; the caller just never hears about it.
    request.socket.destroy();
    return;
  }
  if (fault?.name === 'http_500_after_create') {
    return sendProblem(response, 500, 'Internal Server Error', 'Internal server error (simulated, after the prediction was created)');
  }
  // The answer waits for the final callback's first delivery: it reaches the caller's webhook
  // before the caller knows the prediction id.
  if (fault?.name === 'webhook_before_response') await ctx.lifecycle.finalWebhookSent(prediction);
  else if (waitMs !== null) await ctx.lifecycle.terminalOrAfter(prediction, waitMs);
  // 202 "Prediction has been created but does not yet have all outputs" is documented beside 201.
  sendJson(response, fault?.name === 'accepted_202' ? 202 : 201, ctx.lifecycle.publicJson(prediction));
}

async function handleCreate(ctx: ApiContext, request: IncomingMessage, response: ServerResponse, modelFromPath: string | null): Promise<void> {
  const raw = await readJsonBody(request);
  // Replicate throttles before it looks at the request; a throttled create buys nothing.
  const rate = ctx.createLimiter.take();
  if (!rate.allowed) return sendJson(response, 429, throttledBody(rate.resetsInSeconds));
  const headers = readCreateHeaders(ctx, request, response);
  if (headers === undefined) return;
  const create = readCreateBody(ctx, raw, modelFromPath, response);
  if (create === undefined) return;
  ctx.state.createCalls.push({ at: new Date().toISOString(), webhook: create.body.webhook ?? null });
  const fault = takeFault(ctx.state.faults, create.input.input_images);
  if (fault?.name === 'http_500') return sendProblem(response, 500, 'Internal Server Error', 'Internal server error (simulated)');
  if (fault?.name === 'http_429') return sendJson(response, 429, throttledBody(fault.retryAfterSeconds ?? 1));
  if (fault?.name === 'throttle_reads') ctx.conditions.readThrottlesLeft += fault.count ?? 3;
  if (fault?.name === 'foreign_predictions') {
    for (const p of foreignPredictions(create.model, ctx.address.origin, ctx.nextSeq)) ctx.state.foreign.set(p.id, p);
  }
  const prediction = newPrediction(ctx, create, fault, headers.cancelAfterMs);
  ctx.state.predictions.set(prediction.id, prediction);
  ctx.lifecycle.launch(prediction, create.input, headers.cancelAfterMs);
  return answerCreate(ctx, request, response, prediction, headers.waitMs);
}

function handleList(ctx: ApiContext, response: ServerResponse, url: URL): void {
  const { listOutageStatus } = ctx.conditions;
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
    bounds[name] = ctx.clock.fromProvider(time);
  }
  const now = Date.now();
  const visible = [...ctx.state.predictions.values(), ...ctx.state.foreign.values()].filter((p) => {
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
    pageSize: ctx.listPageSize,
    urlFor: (value) => `${ctx.address.linkApiUrl}/predictions?cursor=${value}${filters.size > 0 ? `&${filters.toString()}` : ''}`,
  });
  sendJson(response, 200, { previous: page.previous, next: page.next, results: page.results.map(ctx.lifecycle.publicJson) });
}

/** GET /files/<id>.<ext>: an output file, in full or (oversize_output) streamed without a length. */
export function handleFile(state: SimulatorState, response: ServerResponse, name: string): void {
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

/** A request under /v1: authenticated with the token, then rate limited as Replicate documents. */
export async function handleApi(ctx: ApiContext, request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
  const presented = request.headers.authorization ?? '';
  if (!timingSafeEqual(digest(presented), ctx.tokenDigest)) {
    return sendProblem(response, 401, 'Unauthenticated', 'You did not pass a valid authentication token');
  }
  const api = url.pathname.slice('/v1'.length);
  const method = request.method ?? 'GET';
  // Gets, lists and cancels share one per-account limit, apart from creates.
  const isRead = (api === '/predictions' && method === 'GET') || /^\/predictions\/[^/]+(\/cancel)?$/.test(api);
  if (isRead) {
    if (ctx.conditions.readThrottlesLeft > 0) {
      ctx.conditions.readThrottlesLeft -= 1;
      return sendJson(response, 429, throttledBody(1));
    }
    const rate = ctx.readLimiter.take();
    if (!rate.allowed) return sendJson(response, 429, throttledBody(rate.resetsInSeconds));
  }
  if (api === '/predictions') {
    if (method === 'POST') return handleCreate(ctx, request, response, null);
    if (method === 'GET') return handleList(ctx, response, url);
  }
  const modelPredictions = /^\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(api);
  if (modelPredictions?.[1] && modelPredictions[2] && method === 'POST') {
    return handleCreate(ctx, request, response, `${decodeURIComponent(modelPredictions[1])}/${decodeURIComponent(modelPredictions[2])}`);
  }
  const model = /^\/models\/([^/]+)\/([^/]+)$/.exec(api);
  if (model?.[1] && model[2] && method === 'GET') {
    const owner = decodeURIComponent(model[1]);
    const name = decodeURIComponent(model[2]);
    if (!ctx.models.has(`${owner}/${name}`)) return sendProblem(response, 404, 'Not found', 'The requested resource could not be found.');
    return sendJson(response, 200, modelDocument({ owner, name, apiUrl: ctx.address.apiUrl, createdAt: ctx.startedAt }));
  }
  const prediction = /^\/predictions\/([^/]+)(\/cancel)?$/.exec(api);
  if (prediction?.[1]) {
    const id = decodeURIComponent(prediction[1]);
    const found = ctx.state.predictions.get(id) ?? ctx.state.foreign.get(id);
    const isCancel = prediction[2] !== undefined;
    if ((isCancel && method !== 'POST') || (!isCancel && method !== 'GET')) {
      return sendProblem(response, 405, 'Method not allowed', `${method} is not allowed here`);
    }
    if (!found) return sendProblem(response, 404, 'Not found', 'The requested resource could not be found.');
    // A finished prediction is returned unchanged (e.g. still `succeeded`).
    if (isCancel) ctx.lifecycle.cancel(found);
    return sendJson(response, 200, ctx.lifecycle.publicJson(found));
  }
  sendProblem(response, 404, 'Not found', 'The requested resource could not be found.');
}
