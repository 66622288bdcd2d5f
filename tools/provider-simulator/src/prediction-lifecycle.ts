// The course of each prediction once created: its status moves (prediction-moves.ts) on its own
// clock as its fault plans them, the Cancel-After deadline, the webhooks, and the waits for its
// progress that the API and the control routes offer.
import { createBackgroundTasks } from './background-tasks';
import { planCourse } from './fault-course';
import type { ModelInput } from './model-document';
import { predictionDocument } from './prediction-document';
import type { SimulatorMode } from './prediction-document';
import { abortBeforeStart, cancel, deadlineReached, finish, removeData, startProcessing } from './prediction-moves';
import type { CompleteOverride, MoveContext } from './prediction-moves';
import { createOutputPreparer } from './prediction-output';
import { createRuntimes } from './prediction-runtimes';
import { isTerminal } from './prediction-state';
import type { SimPrediction, SimulatorState } from './prediction-state';
import { createPredictionWebhooks, wantsWebhook } from './prediction-webhooks';
import { createProgressWatchers } from './progress-watchers';
import { onProviderClock } from './provider-clock';
import type { ProviderClock } from './provider-clock';

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
  const moves: MoveContext = {
    state,
    runtimes,
    sendWebhook,
    prepareOutput: createOutputPreparer(state, () => settings.outputFetchBaseUrl ?? address.origin),
    track,
    changed,
    dataRetentionMs: settings.dataRetentionMs,
  };

  function publicJson(p: SimPrediction) {
    return onProviderClock(predictionDocument(p, { apiUrl: address.apiUrl, origin: address.origin, mode: settings.mode }), settings.clock);
  }

  return {
    publicJson,
    launch(p, input, cancelAfterMs) {
      runtimes.begin(p.id, input);
      const plan = planCourse(p.fault, settings);
      if (plan.abortBeforeStartAfterMs !== null) runtimes.schedule(p, plan.abortBeforeStartAfterMs, () => abortBeforeStart(moves, p));
      if (plan.startAfterMs !== null) runtimes.schedule(p, plan.startAfterMs, () => startProcessing(moves, p));
      if (plan.finishAfterMs !== null) runtimes.schedule(p, plan.finishAfterMs, () => void track(finish(moves, p)));
      if (cancelAfterMs !== null) runtimes.schedule(p, cancelAfterMs, () => deadlineReached(moves, p));
      sendWebhook(p, 'start');
    },
    cancel: (p) => cancel(moves, p),
    terminalOrAfter: (p, ms) => until(() => isTerminal(p.status), ms),
    finalWebhookSent: (p) => until(() => isTerminal(p.status) && (!wantsWebhook(p, 'completed') || p.deliveries.some((d) => d.event === 'completed'))),
    removeData: (p) => removeData(moves, p),
    finishNow: (p, override) => track(finish(moves, p, override)),
    settle,
    reset() {
      lifecycle.abort();
      changed();
      lifecycle = new AbortController();
      runtimes.forgetAll();
    },
  };
}
