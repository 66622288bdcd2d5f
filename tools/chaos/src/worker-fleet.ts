// The worker processes of a chaos run, one per slot. A slot whose worker dies without being told
// to (a crash, not a scheduled kill) is restarted; the kill switch is flipped by restarting every
// slot with AI_ROOM_STAGING_ENABLED false, then true, and the interval in which no enabled worker
// ran is recorded for the audit.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Interval } from './audit-rules';
import type { Exit, RunningChild } from './child-process';
import { waitForHttpOk } from './child-process';
import type { ChaosStack } from './isolated-stack';
import { itemAt } from './random';

const UNEXPECTED_RESTART_DELAY_MS = 500;
const STOP_GRACE_MS = 15_000;
/** Longest a worker may take to boot before a kill stops waiting for it (busy machines boot slowly). */
const READY_TIMEOUT_MS = 180_000;
const READY_POLL_MS = 150;

interface Slot {
  index: number;
  child: RunningChild | null;
  /** When the current worker first answered /readyz; null while it boots. */
  readyAt: number | null;
  /** True while this runner itself is ending the process (a kill or a stop). */
  ending: boolean;
  generation: number;
}

export interface WorkerFleet {
  readonly size: number;
  /** Starts every slot and waits until each answers /readyz. */
  start(timeoutMs: number): Promise<void>;
  /**
   * SIGKILLs a worker that has been ready for `uptimeMs` (one killed while it still loads its
   * modules never touched a job): the preferred slot's, else the next such one, else the first to
   * get there. Its replacement starts after `restartAfterMs`.
   */
  kill(kill: { preferred: number; uptimeMs: number; restartAfterMs: number }): Promise<{ slot: number; pid: number | undefined; waitedMs: number }>;
  /** Stops every worker gracefully and starts them again disabled; resolves once they are spawned. */
  switchOff(): Promise<void>;
  /** Kills the disabled workers and starts enabled ones; records the off interval. */
  switchOn(): Promise<void>;
  killSwitchOff(): Interval[];
  unexpectedExits(): number;
  stop(): Promise<void>;
}

export function createWorkerFleet(stack: ChaosStack, size: number, say: (line: string) => void): WorkerFleet {
  const slots: Slot[] = Array.from({ length: size }, (_, index) => ({ index, child: null, readyAt: null, ending: false, generation: 0 }));
  const offIntervals: Interval[] = [];
  let enabled = true;
  let stopping = false;
  let unexpected = 0;
  let offSince: number | null = null;

  const spawn = async (slot: Slot) => {
    slot.generation += 1;
    const { child, readyUrl } = await stack.spawnWorker(`worker-${slot.index}`, enabled);
    slot.child = child;
    slot.readyAt = null;
    slot.ending = false;
    // Watches until the worker answers or exits, however long it takes to boot.
    void waitForHttpOk(child, readyUrl, Number.MAX_SAFE_INTEGER).then(
      () => {
        if (slot.child === child) slot.readyAt = Date.now();
      },
      () => undefined,
    );
    if (enabled && offSince !== null) {
      offIntervals.push({ fromMs: offSince, toMs: child.startedAtMs });
      offSince = null;
    }
    const generation = slot.generation;
    void child.exited.then(async (exit: Exit) => {
      if (slot.ending || stopping || slot.generation !== generation) return;
      unexpected += 1;
      say(`worker-${slot.index} exited on its own (${exit.signal ?? exit.code}); restarting it`);
      await sleep(UNEXPECTED_RESTART_DELAY_MS);
      if (!stopping && slot.generation === generation) await spawn(slot);
    });
    return readyUrl;
  };

  const end = async (slot: Slot, how: 'kill' | 'stop'): Promise<Exit | null> => {
    const child = slot.child;
    if (child === null || !child.isRunning()) return null;
    slot.ending = true;
    return how === 'kill' ? child.kill() : child.stop(STOP_GRACE_MS);
  };

  /** The preferred slot when its worker has worked `uptimeMs` since it was ready, else the next such slot. */
  const workingSlot = async (preferred: number, uptimeMs: number): Promise<Slot> => {
    const order = slots.map((_, offset) => itemAt(slots, (preferred + offset) % size));
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      const now = Date.now();
      const found = order.find((slot) => slot.readyAt !== null && slot.child?.isRunning() === true && now - slot.readyAt >= uptimeMs);
      if (found !== undefined) return found;
      // Nothing ever became ready: kill the preferred one anyway rather than stall the run.
      if (now > deadline) return itemAt(order, 0);
      await sleep(READY_POLL_MS);
    }
  };

  const endAll = async (how: 'kill' | 'stop') => {
    const exits = await Promise.all(slots.map((slot) => end(slot, how)));
    return Math.max(0, ...exits.map((exit) => exit?.atMs ?? 0));
  };

  return {
    size,
    async start(timeoutMs) {
      const urls = await Promise.all(slots.map(spawn));
      await Promise.all(
        urls.map((url, i) => {
          const child = itemAt(slots, i).child;
          if (child === null) throw new Error(`worker-${i} has no process after its spawn`);
          return waitForHttpOk(child, url, timeoutMs);
        }),
      );
    },
    async kill({ preferred, uptimeMs, restartAfterMs }) {
      const waitStart = Date.now();
      const slot = await workingSlot(preferred, uptimeMs);
      const waitedMs = Date.now() - waitStart;
      const pid = slot.child?.process.pid;
      await end(slot, 'kill');
      await sleep(restartAfterMs);
      await spawn(slot);
      return { slot: slot.index, pid, waitedMs };
    },
    async switchOff() {
      enabled = false;
      // The last enabled worker is gone once every stop resolved; a graceful stop lets each
      // worker finish the create request it may have in flight, so none lands after this instant.
      const lastExit = await endAll('stop');
      offSince = lastExit || Date.now();
      for (const slot of slots) await spawn(slot);
    },
    async switchOn() {
      // Disabled workers buy nothing, so they may die abruptly.
      await endAll('kill');
      enabled = true;
      for (const slot of slots) await spawn(slot);
    },
    killSwitchOff: () => [...offIntervals],
    unexpectedExits: () => unexpected,
    async stop() {
      stopping = true;
      await Promise.all(slots.map((slot) => end(slot, 'stop')));
    },
  };
}
