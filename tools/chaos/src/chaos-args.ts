// The command line of `pnpm chaos`; every option has a default, and the seed is random unless given.
import { randomInt } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { ChaosOptions } from './run-chaos';

export const CHAOS_HELP = `usage: pnpm chaos [--kills N] [--seed S] [--jobs J] [--workers W] [--rate-limit R]
                  [--drain-seconds D] [--daily-cap C]
       pnpm chaos --help

Runs a stack of its own (Postgres database, Redis, api, simulator, workers), submits jobs, kills
workers, scripts provider faults, flushes Redis, terminates Postgres backends and flips the kill
switch, then audits every money and liveness invariant against the simulator's own record.

  --kills N          worker kills (default 20); 0 runs the faults without kills
  --seed S           seed of the whole disturbance plan (default random; printed for a rerun)
  --jobs J           jobs submitted (default the larger of 8 and N)
  --workers W        worker processes, at least 2 (default 2)
  --rate-limit R     AI_STAGING_RATE_LIMIT_PER_MINUTE of the workers (default 24)
  --drain-seconds D  how long the run waits for every job to end after the last event (default 180)
  --daily-cap C      AI_DAILY_PURCHASE_CAP of the workers (default none); jobs over it are
                     canceled by the agent during the drain
  --help             print this text

Exit status: 0 every invariant at its target, 1 some violated, 2 usage error or a broken run.`;

/** True when the command line asks for {@link CHAOS_HELP}. */
export function wantsHelp(argv: readonly string[]): boolean {
  return argv.includes('--help') || argv.includes('-h');
}

function positiveInt(name: string, raw: string | undefined, fallback: number, min = 1): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`--${name} must be an integer ≥ ${min}`);
  return value;
}

export function parseChaosArgs(argv: string[]): ChaosOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      kills: { type: 'string' },
      seed: { type: 'string' },
      jobs: { type: 'string' },
      workers: { type: 'string' },
      'rate-limit': { type: 'string' },
      'drain-seconds': { type: 'string' },
      'daily-cap': { type: 'string' },
    },
    strict: true,
  });
  const kills = positiveInt('kills', values.kills, 20, 0);
  return {
    kills,
    seed: positiveInt('seed', values.seed, randomInt(1, 2 ** 31 - 1), 0),
    jobs: positiveInt('jobs', values.jobs, Math.max(8, kills)),
    workers: positiveInt('workers', values.workers, 2, 2),
    rateLimitPerMinute: positiveInt('rate-limit', values['rate-limit'], 24),
    drainTimeoutMs: positiveInt('drain-seconds', values['drain-seconds'], 180) * 1000,
    dailyPurchaseCap: values['daily-cap'] === undefined ? null : positiveInt('daily-cap', values['daily-cap'], 1),
  };
}

