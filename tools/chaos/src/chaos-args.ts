// The command line of `pnpm chaos`; every option has a default, and the seed is random unless given.
import { randomInt } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { ChaosOptions } from './run-chaos';

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

