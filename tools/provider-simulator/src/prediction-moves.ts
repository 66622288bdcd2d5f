// The status moves of one prediction: starting → processing → a terminal status, each with the
// webhook it sends, and the removal of its data once Replicate would remove it.
import type { BackgroundTasks } from './background-tasks';
import { faultFailureError, faultOutcome } from './fault-course';
import type { createOutputPreparer } from './prediction-output';
import type { createRuntimes } from './prediction-runtimes';
import { isTerminal } from './prediction-state';
import type { SimPrediction, SimulatorState } from './prediction-state';
import type { createPredictionWebhooks } from './prediction-webhooks';

export interface CompleteOverride {
  status?: 'succeeded' | 'failed' | 'aborted';
  error?: string;
}

/** What the moves read and drive: the lifecycle's parts, shared by every prediction. */
export interface MoveContext {
  state: SimulatorState;
  runtimes: ReturnType<typeof createRuntimes>;
  sendWebhook: ReturnType<typeof createPredictionWebhooks>;
  prepareOutput: ReturnType<typeof createOutputPreparer>;
  track: BackgroundTasks['track'];
  /** Wakes whoever waits for a prediction's progress. */
  changed: () => void;
  dataRetentionMs: number;
}

/** Replicate removes API predictions' input, output, logs and files (by default an hour after completion). */
export function removeData(ctx: MoveContext, p: SimPrediction): void {
  p.data_removed = true;
  p.input = {};
  p.output = null;
  p.logs = '';
  for (const fileId of ctx.runtimes.get(p.id)?.fileIds ?? []) ctx.state.files.delete(fileId);
}

function completed(ctx: MoveContext, p: SimPrediction): void {
  p.completed_at = new Date().toISOString();
  ctx.sendWebhook(p, 'completed');
  ctx.runtimes.schedule(p, ctx.dataRetentionMs, () => removeData(ctx, p));
  ctx.changed();
}

/** Ends a prediction that never ran: `aborted`, no output, no predict time. */
export function abortBeforeStart(ctx: MoveContext, p: SimPrediction): void {
  if (isTerminal(p.status)) return;
  ctx.runtimes.clearTimers(p.id);
  p.status = 'aborted';
  p.metrics = { total_time: (Date.now() - Date.parse(p.created_at)) / 1000 };
  completed(ctx, p);
}

export function startProcessing(ctx: MoveContext, p: SimPrediction): void {
  const runtime = ctx.runtimes.get(p.id);
  if (!runtime || p.status !== 'starting') return;
  p.status = 'processing';
  p.started_at = new Date().toISOString();
  if (!p.data_removed) p.logs = 'Editing image...\n';
  ctx.sendWebhook(p, 'logs');
  // A failed preparation (e.g. unreachable input image) is reported by finish() as a failed
  // prediction, so it is tracked quietly; the catch keeps Node from calling it unhandled.
  runtime.prepared = ctx.track(ctx.prepareOutput(p, runtime.input, (fileId) => {
    ctx.runtimes.get(p.id)?.fileIds.push(fileId);
  }), true);
  runtime.prepared.catch(() => undefined);
}

/** Replicate: "aborted if the deadline is reached before it starts running, and canceled if ... while it's running". */
export function deadlineReached(ctx: MoveContext, p: SimPrediction): void {
  if (isTerminal(p.status)) return;
  if (p.status === 'starting') return abortBeforeStart(ctx, p);
  ctx.runtimes.clearTimers(p.id);
  p.status = 'canceled';
  if (!p.data_removed) p.logs += 'Prediction deadline reached.\n';
  completed(ctx, p);
}

export async function finish(ctx: MoveContext, p: SimPrediction, override: CompleteOverride = {}): Promise<void> {
  if (isTerminal(p.status)) return;
  ctx.runtimes.clearTimers(p.id);
  if (p.status === 'starting') startProcessing(ctx, p);
  const runtime = ctx.runtimes.get(p.id);
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
  if (isTerminal(p.status) || ctx.state.predictions.get(p.id) !== p) return;
  const now = new Date();
  if (wanted === 'succeeded' && error === null) {
    p.output = output;
    // The new output is an `output` event while the prediction is still processing.
    ctx.sendWebhook(p, 'output');
    p.status = 'succeeded';
    p.logs += 'Done.\n';
  } else if (wanted === 'aborted') {
    p.status = 'aborted';
  } else {
    p.status = 'failed';
    p.error = error ?? override.error ?? faultFailureError(p.fault);
  }
  // Data removed while running (control API) stays removed.
  if (p.data_removed) removeData(ctx, p);
  const started = p.started_at ? Date.parse(p.started_at) : now.getTime();
  p.metrics = { predict_time: (now.getTime() - started) / 1000, total_time: (now.getTime() - Date.parse(p.created_at)) / 1000 };
  completed(ctx, p);
}

/** Cancels a prediction that has not finished; a finished one is left unchanged. */
export function cancel(ctx: MoveContext, p: SimPrediction): void {
  if (isTerminal(p.status)) return;
  // The prediction finishes while the cancel is on its way: the cancel answers it still
  // running, and it ends succeeded (and billed) anyway.
  if (p.fault?.name === 'cancel_loses_race') return void ctx.track(finish(ctx, p, { status: 'succeeded' }));
  ctx.runtimes.clearTimers(p.id);
  p.status = 'canceled';
  if (!p.data_removed) p.logs += 'Prediction canceled.\n';
  // Replicate's "completed" event covers succeeded, failed and canceled.
  completed(ctx, p);
}
