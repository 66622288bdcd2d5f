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
import type { AddressInfo } from 'node:net';
import { digest } from './api-routes';
import type { ApiContext, SimulatorConditions } from './api-routes';
import { createRateLimiter } from './create-rate-limit';
import { ZFaultList } from './faults';
import type { FaultName, FaultSpec } from './faults';
import { createPredictionLifecycle } from './prediction-lifecycle';
import { createProviderClock } from './provider-clock';
import type { ProviderClock } from './provider-clock';
import type { LifecycleSettings, SimulatorAddress } from './prediction-lifecycle';
import type { CompleteOverride } from './prediction-moves';
import type { SimulatorMode } from './prediction-document';
import type { SimPrediction, SimulatorState } from './prediction-state';
import { closeServer, createSimulatorServer, listen } from './simulator-server';

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
   * A loopback name written as the host of list `next`/`previous` links instead of the bound
   * address (same port), e.g. 'localhost': the provider spells its own origin as it likes.
   */
  linkHost?: string;
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
  /**
   * Test-only: the shortest Cancel-After accepted. Replicate refuses less than 5 s (the default);
   * the simulator's own deadline tests lower it so they do not wait 5 s per deadline.
   */
  testCancelAfterMinimumMs?: number;
  /**
   * How far the provider's clock is ahead of the machine's (negative: behind), in ms; default 0.
   * Applied to the Date header, prediction times, list filters and webhook-timestamp (provider-clock.ts).
   */
  clockOffsetMs?: number;
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
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

/** Refuses options that could reach beyond loopback or break paging; fills in the rest's defaults. */
function checkedBasics(options: ProviderSimulatorOptions): { host: string; mode: SimulatorMode; listPageSize: number } {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK_HOSTS.has(host)) throw new Error(`provider simulator binds to loopback only, not ${host}`);
  if (options.linkHost !== undefined && !LOOPBACK_HOSTS.has(options.linkHost)) throw new Error(`linkHost must be a loopback name, not ${options.linkHost}`);
  if (!options.token) throw new Error('provider simulator needs a token');
  const mode = options.mode ?? 'strict';
  const listPageSize = options.listPageSize ?? 100;
  if (!Number.isInteger(listPageSize) || listPageSize < 1) throw new Error('listPageSize must be a positive integer');
  return { host, mode, listPageSize };
}

function lifecycleSettings(options: ProviderSimulatorOptions, mode: SimulatorMode, clock: ProviderClock): LifecycleSettings {
  return {
    mode,
    webhookSigningSecret: options.webhookSigningSecret,
    completionDelayMs: options.completionDelayMs ?? 300,
    slowCompletionDelayMs: options.slowCompletionDelayMs ?? 5_000,
    retryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
    webhookTimeoutMs: options.webhookTimeoutMs ?? 10_000,
    dataRetentionMs: options.dataRetentionMs ?? 60 * 60_000,
    outputFetchBaseUrl: options.outputFetchBaseUrl,
    clock,
  };
}

function apiContext(
  options: ProviderSimulatorOptions,
  parts: Pick<ApiContext, 'state' | 'lifecycle' | 'address' | 'conditions' | 'clock' | 'listPageSize'>,
): ApiContext {
  let seq = 0;
  return {
    ...parts,
    models: new Set(options.models ?? ['openai/gpt-image-2']),
    createLimiter: createRateLimiter(options.createLimitPerMinute ?? 600),
    readLimiter: createRateLimiter(options.readLimitPerMinute ?? 3_000),
    tokenDigest: digest(`Bearer ${options.token}`),
    allowExternalUrls: options.allowExternalUrls === true,
    cancelAfterMinimumMs: options.testCancelAfterMinimumMs ?? 5_000,
    startedAt: new Date().toISOString(),
    nextSeq: () => (seq += 1),
  };
}

function resetSimulator({ lifecycle, state, conditions, createLimiter, readLimiter }: ApiContext): void {
  lifecycle.reset();
  state.predictions.clear();
  state.foreign.clear();
  state.files.clear();
  state.faults.length = 0;
  state.createCalls.length = 0;
  conditions.listOutageStatus = null;
  conditions.readThrottlesLeft = 0;
  createLimiter.reset();
  readLimiter.reset();
}

/** Fills in where the simulator listens, now that its server is bound. */
function publishAddress(address: SimulatorAddress, bound: AddressInfo, linkHostOption: string | undefined): void {
  address.origin = `http://${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}`;
  address.apiUrl = `${address.origin}/v1`;
  const linkHost = linkHostOption === '::1' ? '[::1]' : linkHostOption;
  address.linkApiUrl = linkHost === undefined ? address.apiUrl : `http://${linkHost}:${bound.port}/v1`;
}

function predictionOrThrow(state: SimulatorState, id: string): SimPrediction {
  const prediction = state.predictions.get(id);
  if (!prediction) throw new Error(`no prediction ${id}`);
  return prediction;
}

export async function startProviderSimulator(options: ProviderSimulatorOptions): Promise<ProviderSimulator> {
  const { host, mode, listPageSize } = checkedBasics(options);
  const state: SimulatorState = { predictions: new Map(), foreign: new Map(), faults: [], files: new Map(), createCalls: [] };
  const conditions: SimulatorConditions = { listOutageStatus: null, readThrottlesLeft: 0 };
  // Filled in once the server is bound; nothing reads it before a request arrives.
  const address: SimulatorAddress = { origin: '', apiUrl: '', linkApiUrl: '' };
  const clock = createProviderClock(options.clockOffsetMs);
  const lifecycle = createPredictionLifecycle(state, lifecycleSettings(options, mode, clock), address);
  const api = apiContext(options, { state, lifecycle, address, conditions, clock, listPageSize });
  const reset = (): void => resetSimulator(api);

  const server = createSimulatorServer(api, reset);
  publishAddress(address, await listen(server, options.port ?? 0, host), options.linkHost);

  return {
    url: address.apiUrl,
    origin: address.origin,
    mode,
    state,
    enqueueFaults(faults) {
      state.faults.push(...ZFaultList.parse(faults));
    },
    setListOutage(status) {
      conditions.listOutageStatus = status;
    },
    removeData(id) {
      const prediction = predictionOrThrow(state, id);
      lifecycle.removeData(prediction);
      return prediction;
    },
    reset,
    async completePrediction(id, override = {}) {
      const prediction = predictionOrThrow(state, id);
      await lifecycle.finishNow(prediction, override);
      return prediction;
    },
    settle: () => lifecycle.settle(),
    async stop() {
      reset();
      await lifecycle.settle();
      await closeServer(server);
    },
  };
}
