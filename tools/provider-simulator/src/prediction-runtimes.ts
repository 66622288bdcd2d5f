// What the lifecycle keeps of each prediction beside its public state: its validated input, the
// timers of its course, its output in preparation, its files and its held callbacks. Reset
// forgets it all at once, so a timer of a forgotten prediction can never fire.
import type { ModelInput } from './model-document';
import type { SimPrediction } from './prediction-state';

export interface Runtime {
  /** The validated input with the model's defaults, kept apart from the echoed (removable) one. */
  input: ModelInput;
  timers: Set<NodeJS.Timeout>;
  prepared: Promise<string[]> | null;
  fileIds: string[];
  /** webhooks_out_of_order: intermediate callbacks held back until after the final one. */
  held: (() => void)[];
}

export function createRuntimes() {
  const runtimes = new Map<string, Runtime>();

  function clearTimers(id: string): void {
    const runtime = runtimes.get(id);
    if (!runtime) return;
    for (const timer of runtime.timers) clearTimeout(timer);
    runtime.timers.clear();
  }

  return {
    get: (id: string) => runtimes.get(id),
    begin(id: string, input: ModelInput): void {
      runtimes.set(id, { input, timers: new Set(), prepared: null, fileIds: [], held: [] });
    },
    /** Runs `run` after `delayMs` unless the prediction's timers are cleared first. */
    schedule(prediction: SimPrediction, delayMs: number, run: () => void): void {
      const runtime = runtimes.get(prediction.id);
      if (!runtime) return;
      const timer = setTimeout(() => {
        runtime.timers.delete(timer);
        run();
      }, delayMs);
      runtime.timers.add(timer);
    },
    clearTimers,
    forgetAll(): void {
      for (const id of runtimes.keys()) clearTimers(id);
      runtimes.clear();
    },
  };
}
