import type { Redis } from 'ioredis';
import { ProviderError } from '@staging/provider/provider-error';
import type { ProviderClient } from '@staging/provider/provider-client';
import type { ProviderOperation } from '@staging/provider/provider-error';

/**
 * One budget for the provider calls that buy nothing (get, list, cancel), shared by every worker
 * of the namespace: Replicate counts them together against one account-wide limit (3000 a
 * minute, docs/decisions/staging.md "Evidence for an unknown create"), apart from creates. A fixed
 * one-minute window in Redis, timed by the Redis clock so workers with skewed clocks agree. A call
 * over budget is not sent: it fails as the provider's own 429 would, so every caller already
 * backs off without spending anything. A window may let up to twice the limit through across its
 * boundary; the default limit leaves that headroom below Replicate's.
 */
export interface ReadBudget {
  /** Null when the call may go; otherwise how long until the window turns. */
  take(): Promise<number | null>;
}

const WINDOW_MS = 60_000;

// Counts the call in the current window; answers how long the window has left when over budget.
const TAKE_SCRIPT = `
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local window = math.floor(nowMs / tonumber(ARGV[2]))
local key = KEYS[1] .. ':' .. window
local count = redis.call('INCR', key)
if count == 1 then redis.call('PEXPIRE', key, tonumber(ARGV[2]) * 2) end
if count > tonumber(ARGV[1]) then return (window + 1) * tonumber(ARGV[2]) - nowMs end
return -1
`;

export function createReadBudget(options: { redis: Redis; key: string; limitPerMinute: number }): ReadBudget {
  return {
    async take() {
      const result = Number(await options.redis.eval(TAKE_SCRIPT, 1, options.key, options.limitPerMinute, WINDOW_MS));
      return result < 0 ? null : result;
    },
  };
}

export function readBudgetKey(queueName: string): string {
  return `staging:provider-reads:${queueName}`;
}

/** The client with get, list and cancel counted against `budget`; creates and model reads pass through. */
export function withReadBudget(client: ProviderClient, budget: ReadBudget): ProviderClient {
  async function spend(operation: ProviderOperation): Promise<void> {
    const waitMs = await budget.take();
    if (waitMs === null) return;
    throw new ProviderError({
      kind: 'throttled',
      operation,
      message: `provider ${operation} held back: the shared budget of provider reads is spent for this minute`,
      status: 429,
      retryAfterSeconds: Math.ceil(waitMs / 1000),
    });
  }
  return {
    ...client,
    async getPrediction(id) {
      await spend('getPrediction');
      return client.getPrediction(id);
    },
    async cancelPrediction(id) {
      await spend('cancelPrediction');
      return client.cancelPrediction(id);
    },
    async listPredictions(options) {
      await spend('listPredictions');
      return client.listPredictions(options);
    },
  };
}
