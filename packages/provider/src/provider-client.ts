/**
 * HTTP client for the Replicate predictions API (and the local provider simulator, which speaks the
 * same API). Nothing here reads the environment: the worker passes base URL and token in.
 *
 * Creation uses POST /models/{owner}/{name}/predictions (the endpoint Replicate documents for
 * official models, which have no pinned version hash); see docs/decisions/provider.md "Prediction
 * creation endpoint".
 */
import { readListLink } from './list-link';
import { readInputConstraints } from './model-schema';
import type { ModelInfo } from './model-schema';
import {
  AUTH_MESSAGE,
  describeTransportError,
  detailOf,
  errorName,
  kindForStatus,
  parseRetryAfterSeconds,
  ProviderError,
  redactUrls,
} from './provider-error';
import type { ProviderOperation } from './provider-error';
import { formatCancelAfter, parsePrediction, readListEntry, ZModel, ZPredictionPage } from './provider-wire';
import type { CreatePredictionInput, ListPredictionsOptions, Prediction, PredictionPage } from './provider-wire';

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

function splitModel(model: string): [string, string] {
  const match = /^([^/\s:]+)\/([^/\s:]+)$/.exec(model);
  if (!match?.[1] || !match[2]) throw new Error(`model must be "owner/name", got "${model}"`);
  return [match[1], match[2]];
}

/** Where and how this client's requests go, resolved once from the options. */
interface Connection {
  baseUrl: string;
  token: string;
  doFetch: typeof fetch;
  timeoutMs: number;
  onResponseDate: ProviderClientOptions['onResponseDate'];
}

interface Answer {
  response: Response;
  text: string;
}

/** Sends one request and reads its answer's text; a transport failure or timeout is a `network` error. */
async function fetchAnswer(
  connection: Connection,
  operation: ProviderOperation,
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  extraHeaders: Record<string, string>,
): Promise<Answer> {
  const headers: Record<string, string> = { ...extraHeaders, Authorization: `Bearer ${connection.token}`, Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const sentAtMs = Date.now();
  try {
    const response = await connection.doFetch(`${connection.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(connection.timeoutMs),
      redirect: 'error',
    });
    const date = response.headers.get('date');
    if (date !== null) connection.onResponseDate?.({ date, sentAtMs, receivedAtMs: Date.now() });
    return { response, text: await response.text() };
  } catch (cause) {
    const reason = errorName(cause) === 'TimeoutError' ? `timed out after ${connection.timeoutMs} ms` : `request failed: ${describeTransportError(cause)}`;
    throw new ProviderError({ kind: 'network', operation, message: `provider ${operation} ${reason}`, cause });
  }
}

/** The answer's JSON (undefined when empty or unreadable), or the error its HTTP status stands for. */
function readAnswer(operation: ProviderOperation, { response, text }: Answer): unknown {
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
function listPath({ next, createdAfter, createdBefore }: ListPredictionsOptions, baseUrl: string): string {
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

/** A list page, whose `next` link is followed only while it stays on the API's list. */
function readPredictionPage(json: unknown, baseUrl: string): PredictionPage {
  const page = ZPredictionPage.parse(json);
  const results = page.results.map(readListEntry);
  if (!page.next) return { results, next: null };
  const link = readListLink(page.next, baseUrl);
  return link.kind === 'on-api' ? { results, next: page.next } : { results, next: null, refusedNextOrigin: link.origin };
}

function readModel(json: unknown): ModelInfo {
  const model = ZModel.parse(json);
  return {
    owner: model.owner,
    name: model.name,
    latestVersionId: model.latest_version?.id ?? null,
    input: readInputConstraints(model.latest_version?.openapi_schema),
  };
}

export function createProviderClient(options: ProviderClientOptions): ProviderClient {
  const connection: Connection = {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    token: options.token,
    doFetch: options.fetch ?? fetch,
    timeoutMs: options.timeoutMs ?? 30_000,
    onResponseDate: options.onResponseDate,
  };

  async function request(
    operation: ProviderOperation,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<unknown> {
    return readAnswer(operation, await fetchAnswer(connection, operation, method, path, body, extraHeaders));
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
      const json = await request('listPredictions', 'GET', listPath(listOptions, connection.baseUrl));
      return parseOrThrow('listPredictions', () => readPredictionPage(json, connection.baseUrl));
    },
    async getModel(owner, name) {
      const json = await request('getModel', 'GET', `/models/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`);
      return parseOrThrow('getModel', () => readModel(json));
    },
  };
}
