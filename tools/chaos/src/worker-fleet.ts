// The worker processes of a chaos run, one per slot. A slot whose worker dies without being told
// to (a crash, not a scheduled kill) is restarted; the kill switch is flipped by restarting every
// slot with AI_ROOM_STAGING_ENABLED false, then true, and the interval in which no enabled worker
// ran is recorded for the audit.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Interval } from './audit-rules';
import type { ChildApp, Exit } from '@staging/stack/child-app';
import type { ChaosStack } from './isolated-stack';
import { itemAt } from './random';

const UNEXPECTED_RESTART_DELAY_MS = 500;
const STOP_GRACE_MS = 15_000;
/** Longest a worker may take to boot before a kill stops waiting for it (busy machines boot slowly). */
const READY_TIMEOUT_MS = 180_000;
const READY_POLL_MS = 150;

interface Slot {
  index: number;
  child: ChildApp | null;
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

/** What the fleet's operations share: its slots, the kill switch and the exits nobody asked for. */
interface Fleet {
  stack: ChaosStack;
  slots: Slot[];
  say: (line: string) => void;
  offIntervals: Interval[];
  enabled: boolean;
  stopping: boolean;
  unexpected: number;
  offSince: number | null;
}

/**
 * Starts the slot's next worker and resolves with its /readyz once announced; one that dies on its
 * own is started again after a pause.
 */
function spawnInto(fleet: Fleet, slot: Slot): Promise<string> {
  slot.generation += 1;
  const { child, readyUrl } = fleet.stack.spawnWorker(`worker-${slot.index}`, fleet.enabled);
  slot.child = child;
  slot.readyAt = null;
  slot.ending = false;
  // Watches until the worker answers or exits, however long it takes to boot.
  void child.waitForHealth(readyUrl).then(
    () => {
      if (slot.child === child) slot.readyAt = Date.now();
    },
    () => undefined,
  );
  if (fleet.enabled && fleet.offSince !== null) {
    fleet.offIntervals.push({ fromMs: fleet.offSince, toMs: child.startedAtMs });
    fleet.offSince = null;
  }
  const generation = slot.generation;
  void child.exited.then(async (exit: Exit) => {
    if (slot.ending || fleet.stopping || slot.generation !== generation) return;
    fleet.unexpected += 1;
    fleet.say(`worker-${slot.index} exited on its own (${exit.signal ?? exit.code}); restarting it`);
    await sleep(UNEXPECTED_RESTART_DELAY_MS);
    if (!fleet.stopping && slot.generation === generation) await spawnInto(fleet, slot);
  });
  return readyUrl;
}

/** Ends the slot's worker, if it runs; resolves with the time of its exit. */
async function end(slot: Slot, how: 'kill' | 'stop'): Promise<number | null> {
  const child = slot.child;
  if (child === null || !child.isRunning()) return null;
  slot.ending = true;
  await (how === 'kill' ? child.kill() : child.stop(STOP_GRACE_MS));
  return Date.now();
}

/** Ends every worker; resolves with the time of the last exit (0 when none ran). */
async function endAll(fleet: Fleet, how: 'kill' | 'stop'): Promise<number> {
  const exits = await Promise.all(fleet.slots.map((slot) => end(slot, how)));
  return Math.max(0, ...exits.map((atMs) => atMs ?? 0));
}

/** The preferred slot when its worker has worked `uptimeMs` since it was ready, else the next such slot. */
async function workingSlot(slots: Slot[], preferred: number, uptimeMs: number): Promise<Slot> {
  const order = slots.map((_, offset) => itemAt(slots, (preferred + offset) % slots.length));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const now = Date.now();
    const found = order.find((slot) => slot.readyAt !== null && slot.child?.isRunning() === true && now - slot.readyAt >= uptimeMs);
    if (found !== undefined) return found;
    // Nothing ever became ready: kill the preferred one anyway rather than stall the run.
    if (now > deadline) return itemAt(order, 0);
    await sleep(READY_POLL_MS);
  }
}

export function createWorkerFleet(stack: ChaosStack, size: number, say: (line: string) => void): WorkerFleet {
  const slots: Slot[] = Array.from({ length: size }, (_, index) => ({ index, child: null, readyAt: null, ending: false, generation: 0 }));
  const fleet: Fleet = { stack, slots, say, offIntervals: [], enabled: true, stopping: false, unexpected: 0, offSince: null };
  const respawnAll = async () => {
    for (const slot of slots) await spawnInto(fleet, slot);
  };
  return {
    size,
    async start(timeoutMs) {
      const urls = await Promise.all(slots.map((slot) => spawnInto(fleet, slot)));
      await Promise.all(
        urls.map((url, i) => {
          const child = itemAt(slots, i).child;
          if (child === null) throw new Error(`worker-${i} has no process after its spawn`);
          return child.waitForHealth(url, { timeoutMs });
        }),
      );
    },
    async kill({ preferred, uptimeMs, restartAfterMs }) {
      const waitStart = Date.now();
      const slot = await workingSlot(slots, preferred, uptimeMs);
      const waitedMs = Date.now() - waitStart;
      const pid = slot.child?.process.pid;
      await end(slot, 'kill');
      await sleep(restartAfterMs);
      await spawnInto(fleet, slot);
      return { slot: slot.index, pid, waitedMs };
    },
    async switchOff() {
      fleet.enabled = false;
      // The last enabled worker is gone once every stop resolved; a graceful stop lets each
      // worker finish the create request it may have in flight, so none lands after this instant.
      const lastExit = await endAll(fleet, 'stop');
      fleet.offSince = lastExit || Date.now();
      await respawnAll();
    },
    async switchOn() {
      // Disabled workers buy nothing, so they may die abruptly.
      await endAll(fleet, 'kill');
      fleet.enabled = true;
      await respawnAll();
    },
    killSwitchOff: () => [...fleet.offIntervals],
    unexpectedExits: () => fleet.unexpected,
    async stop() {
      fleet.stopping = true;
      await Promise.all(slots.map((slot) => end(slot, 'stop')));
    },
  };
}
