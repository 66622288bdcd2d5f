// The course of each prediction once created: starting → processing → a terminal status on its
// own clock, the webhooks each step sends (filtered, lost or duplicated as its fault says), the
// Cancel-After deadline, and the removal of its data an hour after completion.
import { createBackgroundTasks } from './background-tasks';
import { faultFailureError, faultOutcome, planCourse } from './fault-course';
import type { ModelInput } from './model-document';
import { predictionDocument } from './prediction-document';
import type { SimulatorMode } from './prediction-document';
import { createOutputPreparer } from './prediction-output';
import { createRuntimes } from './prediction-runtimes';
import { isTerminal } from './prediction-state';
import type { SimPrediction, SimulatorState } from './prediction-state';
import { createPredictionWebhooks, wantsWebhook } from './prediction-webhooks';
import { createProgressWatchers } from './progress-watchers';
import { onProviderClock } from './provider-clock';
import type { ProviderClock } from './provider-clock';

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

export function createPredictionLifecycle(state: SimulatorState, settings: LifecycleSettings, address: SimulatorAddress): PredictionLifecycle {
  const runtimes = createRuntimes();
  const { track, settle } = createBackgroundTasks();
  let lifecycle = new AbortController();
  const { changed, until } = createProgressWatchers(() => lifecycle.signal);
  const sendWebhook = createPredictionWebhooks(settings, {
    publicJson,
    track,
    changed,
    signal: () => lifecycle.signal,
    heldFor: (id) => runtimes.get(id)?.held,
  });
  const prepareOutput = createOutputPreparer(state, () => settings.outputFetchBaseUrl ?? address.origin);

  function publicJson(p: SimPrediction) {
    return onProviderClock(predictionDocument(p, { apiUrl: address.apiUrl, origin: address.origin, mode: settings.mode }), settings.clock);
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
    runtimes.schedule(p, settings.dataRetentionMs, () => removeData(p));
    changed();
  }

  /** Ends a prediction that never ran: `aborted`, no output, no predict time. */
  function abortBeforeStart(p: SimPrediction): void {
    if (isTerminal(p.status)) return;
    runtimes.clearTimers(p.id);
    p.status = 'aborted';
    p.metrics = { total_time: (Date.now() - Date.parse(p.created_at)) / 1000 };
    completed(p);
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
    runtime.prepared = track(prepareOutput(p, runtime.input, (fileId) => {
      runtimes.get(p.id)?.fileIds.push(fileId);
    }), true);
    runtime.prepared.catch(() => undefined);
  }

  /** Replicate: "aborted if the deadline is reached before it starts running, and canceled if ... while it's running". */
  function deadlineReached(p: SimPrediction): void {
    if (isTerminal(p.status)) return;
    if (p.status === 'starting') return abortBeforeStart(p);
    runtimes.clearTimers(p.id);
    p.status = 'canceled';
    if (!p.data_removed) p.logs += 'Prediction deadline reached.\n';
    completed(p);
  }

  async function finish(p: SimPrediction, override: CompleteOverride = {}): Promise<void> {
    if (isTerminal(p.status)) return;
    runtimes.clearTimers(p.id);
    if (p.status === 'starting') startProcessing(p);
    const runtime = runtimes.get(p.id);
    let output: string[] | null = null;
    let error: string | null = null;
    const wanted = override.status ?? faultOutcome(p.fault);
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
      p.error = error ?? override.error ?? faultFailureError(p.fault);
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
      runtimes.begin(p.id, input);
      const plan = planCourse(p.fault, settings);
      if (plan.abortBeforeStartAfterMs !== null) runtimes.schedule(p, plan.abortBeforeStartAfterMs, () => abortBeforeStart(p));
      if (plan.startAfterMs !== null) runtimes.schedule(p, plan.startAfterMs, () => startProcessing(p));
      if (plan.finishAfterMs !== null) runtimes.schedule(p, plan.finishAfterMs, () => void track(finish(p)));
      if (cancelAfterMs !== null) runtimes.schedule(p, cancelAfterMs, () => deadlineReached(p));
      sendWebhook(p, 'start');
    },
    cancel(p) {
      if (isTerminal(p.status)) return;
      // The prediction finishes while the cancel is on its way: the cancel answers it still
      // running, and it ends succeeded (and billed) anyway.
      if (p.fault?.name === 'cancel_loses_race') return void track(finish(p, { status: 'succeeded' }));
      runtimes.clearTimers(p.id);
      p.status = 'canceled';
      if (!p.data_removed) p.logs += 'Prediction canceled.\n';
      // Replicate's "completed" event covers succeeded, failed and canceled.
      completed(p);
    },
    terminalOrAfter: (p, ms) => until(() => isTerminal(p.status), ms),
    finalWebhookSent: (p) => until(() => isTerminal(p.status) && (!wantsWebhook(p, 'completed') || p.deliveries.some((d) => d.event === 'completed'))),
    removeData,
    finishNow: (p, override) => track(finish(p, override)),
    settle,
    reset() {
      lifecycle.abort();
      changed();
      lifecycle = new AbortController();
      runtimes.forgetAll();
    },
  };
}
