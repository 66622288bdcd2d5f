/**
 * Test-only fault injection for the crash-matrix and blocked-event-loop tests, which run the real
 * entry point (`tsx src/main.ts`) as a child process. Enabled only by command-line flags, never by
 * configuration, so a deployed worker cannot be switched into it by an environment variable:
 *
 * - `--test-crash-at=<boundary>`: the process kills itself with SIGKILL the first time a job
 *   reaches that step boundary (`during-create` fires a few milliseconds after the create request
 *   was sent, so the request is in flight).
 * - `--test-block-at=<boundary>:<ms>`: the event loop is blocked synchronously for <ms> the first
 *   time a job reaches that boundary (no timers, no lock renewal, no I/O).
 * - `--test-timings=<json>`: overrides of StagingTimings and consumer lock settings, plus
 *   `bootDelayMs`: a pause before the app starts, so a test can signal the worker mid-boot.
 */
import { writeSync } from 'node:fs';
import { STEP_BOUNDARIES } from '../staging/staging-deps';
import type { StagingTimings, StepBoundary } from '../staging/staging-deps';

export interface TestHooks {
  boundary: (name: StepBoundary, jobId: string) => Promise<void>;
  timings: Partial<StagingTimings>;
  consumer: { lockDurationMs?: number; stalledIntervalMs?: number };
  loops: { repairIntervalMs?: number };
  shutdownGraceMs?: number;
  bootDelayMs?: number;
}

/** Synchronous, so the line is out before a SIGKILL or a blocked event loop (pipes are async). */
function say(line: string): void {
  writeSync(2, `${line}\n`);
}

function isBoundary(value: string): value is StepBoundary {
  return (STEP_BOUNDARIES as readonly string[]).includes(value);
}

export function parseTestHooks(argv: readonly string[]): TestHooks | null {
  const flags = new Map<string, string>();
  for (const arg of argv) {
    const match = /^--(test-[a-z-]+)=(.*)$/.exec(arg);
    if (match?.[1] !== undefined && match[2] !== undefined) flags.set(match[1], match[2]);
  }
  if (flags.size === 0) return null;

  const crashAt = flags.get('test-crash-at');
  const blockAt = flags.get('test-block-at');
  if (crashAt !== undefined && !isBoundary(crashAt))
    throw new Error(`unknown --test-crash-at boundary ${crashAt}`);
  const [blockName, blockMs] = blockAt?.split(':') ?? [];
  if (blockName !== undefined && !isBoundary(blockName))
    throw new Error(`unknown --test-block-at boundary ${blockName}`);

  const settings = JSON.parse(flags.get('test-timings') ?? '{}') as Partial<StagingTimings> & {
    lockDurationMs?: number;
    stalledIntervalMs?: number;
    repairIntervalMs?: number;
    shutdownGraceMs?: number;
    bootDelayMs?: number;
  };
  const { lockDurationMs, stalledIntervalMs, repairIntervalMs, shutdownGraceMs, bootDelayMs, ...timings } = settings;
  let crashed = false;
  let blocked = false;
  return {
    timings,
    consumer: { lockDurationMs, stalledIntervalMs },
    loops: { repairIntervalMs },
    shutdownGraceMs,
    bootDelayMs,
    async boundary(name, jobId) {
      if (name === crashAt && !crashed) {
        crashed = true;
        say(`test hook: SIGKILL at ${name} (job ${jobId})`);
        if (name === 'during-create') {
          setTimeout(() => process.kill(process.pid, 'SIGKILL'), 3);
          return;
        }
        process.kill(process.pid, 'SIGKILL');
        // SIGKILL is delivered asynchronously; never continue past the boundary meanwhile.
        await new Promise(() => undefined);
      }
      if (name === blockName && !blocked) {
        blocked = true;
        const until = Date.now() + Number(blockMs ?? 0);
        say(`test hook: blocking the event loop at ${name} (job ${jobId})`);
        while (Date.now() < until) {
          // Busy wait on purpose: this simulates a stuck event loop.
        }
      }
    },
  };
}
