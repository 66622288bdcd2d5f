// The course of each prediction once created: starting → processing → a terminal status on its
// own clock, the webhooks each step sends (filtered, lost or duplicated as its fault says), the
// Cancel-After deadline, and the removal of its data an hour after completion.
import { PERMANENT_FAILURE_ERROR, RETRYABLE_FAILURE_ERROR } from './faults';
import type { FaultSpec } from './faults';
import type { ModelInput } from './model-document';
import { CONTENT_TYPES, OUTPUT_SIZES, memoizedRenderer, wrongSizeFor } from './output-image';
import type { AspectRatio, OutputFormat } from './output-image';
import { predictionDocument } from './prediction-document';
import { onProviderClock } from './provider-clock';
import type { ProviderClock } from './provider-clock';
import type { SimulatorMode } from './prediction-document';
import { isTerminal, randomId } from './prediction-state';
import type { OutputFile, SimPrediction, SimulatorState } from './prediction-state';
import { createWebhookSender, newWebhookId } from './webhook-delivery';
import type { WebhookEvent } from './webhook-delivery';

export interface CompleteOverride {
  status?: 'succeeded' | 'failed' | 'aborted';
  error?: string;
}

export interface LifecycleSettings {
  mode: SimulatorMode;
  webhookSigningSecret: string;
  completionDelayMs: number;
  slowCompletionDelayMs: number;
  retryDelaysMs: number[];
  webhookTimeoutMs: number;
  dataRetentionMs: number;
  /** Base of output file URLs; the simulator's origin when unset. */
  outputFetchBaseUrl: string | undefined;
  /** The clock the provider shows (prediction times, webhook-timestamp). */
  clock: ProviderClock;
}

/** Where the simulator listens; known only once its server is bound. */
export interface SimulatorAddress {
  origin: string;
  apiUrl: string;
  /** API base written into list `next`/`previous` links (apiUrl unless `linkHost` respells it). */
  linkApiUrl: string;
}

export interface PredictionLifecycle {
  /** The prediction as the API and webhooks show it. */
  publicJson(p: SimPrediction): ReturnType<typeof predictionDocument>;
  /** Runs a prediction just created with its validated input: start, finish and deadline timers, the `start` webhook. */
  launch(p: SimPrediction, input: ModelInput, cancelAfterMs: number | null): void;
  /** Cancels a prediction that has not finished; a finished one is left unchanged. */
  cancel(p: SimPrediction): void;
  /** Resolves once the prediction is terminal or after `ms` (Prefer: wait), whichever is first. */
  terminalOrAfter(p: SimPrediction, ms: number): Promise<void>;
  /** Resolves once the final webhook went out the first time (or the prediction ended without one). */
  finalWebhookSent(p: SimPrediction): Promise<void>;
  /** Replicate removes API predictions' input, output, logs and files (by default an hour after completion). */
  removeData(p: SimPrediction): void;
  /** Finishes a prediction now (default succeeded), even one under never_complete. */
  finishNow(p: SimPrediction, override?: CompleteOverride): Promise<void>;
  /** Resolves when no webhook delivery or output preparation is in flight. */
  settle(): Promise<void>;
  /** Stops every timer and webhook in flight and forgets every prediction's course. */
  reset(): void;
}

/** Replicate: "By default, Replicate sends requests ... whenever there are new outputs or the prediction has finished." */
const DEFAULT_WEBHOOK_EVENTS: readonly WebhookEvent[] = ['output', 'completed'];
const OVERSIZE_BYTES = 21 * 1024 * 1024;
const MAX_INPUT_IMAGE_BYTES = 50 * 1024 * 1024;

interface Runtime {
  /** The validated input with the model's defaults, kept apart from the echoed (removable) one. */
  input: ModelInput;
  timers: Set<NodeJS.Timeout>;
  prepared: Promise<string[]> | null;
  fileIds: string[];
  /** webhooks_out_of_order: intermediate callbacks held back until after the final one. */
  held: (() => void)[];
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

export function createPredictionLifecycle(state: SimulatorState, settings: LifecycleSettings, address: SimulatorAddress): PredictionLifecycle {
  const runtimes = new Map<string, Runtime>();
  const background = new Set<Promise<unknown>>();
  const deliver = createWebhookSender(settings.webhookSigningSecret, settings.clock);
  const render = memoizedRenderer();
  let lifecycle = new AbortController();
  /** Callers waiting on a prediction's progress (Prefer: wait, webhook_before_response); re-checked on every change. */
  const watchers = new Set<() => void>();

  function changed(): void {
    for (const watcher of [...watchers]) watcher();
  }

  function until(done: () => boolean, timeoutMs: number | null = null): Promise<void> {
    return new Promise((resolve) => {
      const signal = lifecycle.signal;
      let timer: NodeJS.Timeout | undefined;
      const check = () => {
        if (!done() && !signal.aborted) return;
        watchers.delete(check);
        clearTimeout(timer);
        resolve();
      };
      if (timeoutMs !== null) {
        timer = setTimeout(() => {
          watchers.delete(check);
          resolve();
        }, timeoutMs);
      }
      watchers.add(check);
      check();
    });
  }

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
    return onProviderClock(predictionDocument(p, { apiUrl: address.apiUrl, origin: address.origin, mode: settings.mode }), settings.clock);
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
    const send = () =>
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
              retryDelaysMs: event === 'completed' ? settings.retryDelaysMs : [],
              timeoutMs: settings.webhookTimeoutMs,
              record: (attempt) => {
                p.deliveries.push(attempt);
                changed();
              },
              signal,
            });
          }
        })(),
      );
    const runtime = runtimes.get(p.id);
    if (p.fault?.name !== 'webhooks_out_of_order' || !runtime) return void send();
    // Each body is the prediction as it was when the event happened; only the order is wrong.
    // Deliveries are tracked for shutdown, not awaited: a held one is sent later the same way.
    if (event !== 'completed') return void runtime.held.push(() => void send());
    void send();
    for (const held of runtime.held.splice(0).reverse()) held();
  }

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
    schedule(p, settings.dataRetentionMs, () => removeData(p));
    changed();
  }

  /** Ends a prediction that never ran: `aborted`, no output, no predict time. */
  function abortBeforeStart(p: SimPrediction): void {
    if (isTerminal(p.status)) return;
    clearTimers(p.id);
    p.status = 'aborted';
    p.metrics = { total_time: (Date.now() - Date.parse(p.created_at)) / 1000 };
    completed(p);
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
    const base = (settings.outputFetchBaseUrl ?? address.origin).replace(/\/+$/, '');
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
    if (p.status === 'starting') return abortBeforeStart(p);
    clearTimers(p.id);
    p.status = 'canceled';
    if (!p.data_removed) p.logs += 'Prediction deadline reached.\n';
    completed(p);
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

  return {
    publicJson,
    launch(p, input, cancelAfterMs) {
      runtimes.set(p.id, { input, timers: new Set(), prepared: null, fileIds: [], held: [] });
      const delay = p.fault?.delayMs ?? (p.fault?.name === 'slow' ? settings.slowCompletionDelayMs : settings.completionDelayMs);
      const name = p.fault?.name;
      // stuck_starting never gets a worker: only its deadline (aborted) or a cancel ends it.
      // aborted_before_start is dropped from the queue at `delay`, as a passed deadline does.
      if (name === 'aborted_before_start') schedule(p, delay, () => abortBeforeStart(p));
      else if (name !== 'stuck_starting') schedule(p, Math.min(50, Math.floor(delay / 4)), () => startProcessing(p));
      if (name !== 'never_complete' && name !== 'stuck_starting' && name !== 'aborted_before_start') schedule(p, delay, () => void track(finish(p)));
      if (cancelAfterMs !== null) schedule(p, cancelAfterMs, () => deadlineReached(p));
      sendWebhook(p, 'start');
    },
    cancel(p) {
      if (isTerminal(p.status)) return;
      // The prediction finishes while the cancel is on its way: the cancel answers it still
      // running, and it ends succeeded (and billed) anyway.
      if (p.fault?.name === 'cancel_loses_race') return void track(finish(p, { status: 'succeeded' }));
      clearTimers(p.id);
      p.status = 'canceled';
      if (!p.data_removed) p.logs += 'Prediction canceled.\n';
      // Replicate's "completed" event covers succeeded, failed and canceled.
      completed(p);
    },
    terminalOrAfter: (p, ms) => until(() => isTerminal(p.status), ms),
    finalWebhookSent: (p) => until(() => isTerminal(p.status) && (!wantsWebhook(p, 'completed') || p.deliveries.some((d) => d.event === 'completed'))),
    removeData,
    finishNow: (p, override) => track(finish(p, override)),
    async settle() {
      while (background.size > 0) await Promise.allSettled([...background]);
    },
    reset() {
      lifecycle.abort();
      changed();
      lifecycle = new AbortController();
      for (const id of runtimes.keys()) clearTimers(id);
      runtimes.clear();
    },
  };
}
