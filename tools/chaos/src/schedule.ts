// The whole disturbance plan of a run, drawn up front from the seed: which worker dies when, when
// jobs are submitted and canceled, which provider faults are scripted, when Redis is flushed,
// Postgres backends are terminated and the kill switch is flipped. The runner replays it in order.
import { itemAt } from './random';
import type { Random } from './random';

/** Faults scripted through the simulator's control API (cancels go through the tRPC procedure). */
export const FAULT_MIX = [
  { name: 'response_lost' },
  { name: 'http_500' },
  { name: 'http_429' },
  { name: 'slow', delayMs: 2_500 },
  { name: 'fail' },
  { name: 'fail_permanent' },
  { name: 'no_webhook' },
  { name: 'duplicate_webhook' },
  // What a real Replicate account does around a purchase:
  { name: 'no_webhook', events: ['start'] },
  { name: 'duplicate_webhook_new_id' },
  { name: 'list_lag', listLagMs: 150_000 },
  { name: 'response_lost', events: ['start'], listLagMs: 150_000 },
  { name: 'foreign_predictions' },
  { name: 'echo_rewritten' },
  { name: 'http_500_after_create' },
  { name: 'throttle_reads', count: 5 },
  // What Replicate's OpenAPI document allows (docs/decisions/provider.md, "Provider simulator: what
  // Replicate guarantees"): deadlines before start, callbacks out of order, lost cancel races.
  { name: 'aborted_before_start' },
  { name: 'stuck_starting' },
  { name: 'webhooks_out_of_order' },
  { name: 'webhook_before_response' },
  { name: 'cancel_loses_race', delayMs: 2_500 },
  { name: 'accepted_202' },
  { name: 'http_429', retryAfterSeconds: 3 },
] as const;
export type ScriptedFault = (typeof FAULT_MIX)[number];

export type ChaosEvent =
  | { atMs: number; kind: 'submit'; count: number }
  | { atMs: number; kind: 'cancel'; jobIndex: number }
  | { atMs: number; kind: 'fault'; fault: ScriptedFault }
  // `worker` is the preferred slot (another is killed while it still boots); `uptimeMs` is how
  // long the victim has been ready, so kills land while workers work rather than while they load.
  | { atMs: number; kind: 'kill'; worker: number; uptimeMs: number; restartAfterMs: number }
  | { atMs: number; kind: 'flushall' }
  | { atMs: number; kind: 'terminate-backends' }
  | { atMs: number; kind: 'kill-switch-off'; durationMs: number };

export interface ScheduleOptions {
  kills: number;
  jobs: number;
  workers: number;
}

const KILL_GAP_MS = { min: 800, max: 2_200 };
const UPTIME_MS = { min: 500, max: 4_000 };
const RESTART_DELAY_MS = { min: 0, max: 1_500 };
const SWITCH_OFF_MS = { min: 3_000, max: 6_000 };
const MAX_BATCH = 4;

/** Events sorted by time; ties keep the order they were drawn in. */
export function buildSchedule(options: ScheduleOptions, random: Random): ChaosEvent[] {
  const events: ChaosEvent[] = [];
  let t = 0;
  for (let i = 0; i < options.kills; i += 1) {
    t += random.between(KILL_GAP_MS.min, KILL_GAP_MS.max);
    events.push({
      atMs: Math.round(t),
      kind: 'kill',
      worker: random.int(0, options.workers - 1),
      uptimeMs: Math.round(random.between(UPTIME_MS.min, UPTIME_MS.max)),
      restartAfterMs: Math.round(random.between(RESTART_DELAY_MS.min, RESTART_DELAY_MS.max)),
    });
  }
  const span = Math.max(t, 10_000);
  const at = (from: number, to: number) => Math.round(random.between(from * span, to * span));

  // Jobs arrive in small batches over the first 70 % of the run, the first batch at once.
  const submits: { atMs: number; count: number }[] = [];
  for (let left = options.jobs; left > 0; ) {
    const count = Math.min(left, random.int(1, MAX_BATCH));
    submits.push({ atMs: submits.length === 0 ? 0 : at(0, 0.7), count });
    left -= count;
  }
  submits.sort((a, b) => a.atMs - b.atMs);
  events.push(...submits.map((s) => ({ ...s, kind: 'submit' as const })));

  const submittedBy = (atMs: number) => submits.filter((s) => s.atMs <= atMs).reduce((sum, s) => sum + s.count, 0);
  for (let i = 0; i < Math.max(1, Math.round(options.jobs / 10)); i += 1) {
    const atMs = at(0.05, 0.85);
    events.push({ atMs, kind: 'cancel', jobIndex: random.int(0, Math.max(0, submittedBy(atMs) - 1)) });
  }
  // Dealt from reshuffled decks rather than drawn one by one, so a run with as many fault slots
  // as the mix has entries scripts every one of them.
  const nextFault = dealer(FAULT_MIX, random);
  for (let i = 0; i < Math.round(options.jobs * 0.6); i += 1) {
    events.push({ atMs: at(0, 0.85), kind: 'fault', fault: nextFault() });
  }
  for (let i = 0; i < Math.max(1, Math.round(options.kills / 20)); i += 1) {
    events.push({ atMs: at(0.2, 0.8), kind: 'flushall' });
  }
  for (let i = 0; i < Math.max(2, Math.round(options.kills / 8)); i += 1) {
    events.push({ atMs: at(0, 1), kind: 'terminate-backends' });
  }
  for (let i = 0; i < Math.max(1, Math.round(options.kills / 100)); i += 1) {
    events.push({
      atMs: at(0.3, 0.7),
      kind: 'kill-switch-off',
      durationMs: Math.round(random.between(SWITCH_OFF_MS.min, SWITCH_OFF_MS.max)),
    });
  }
  return events.map((event, order) => ({ event, order })).sort((a, b) => a.event.atMs - b.event.atMs || a.order - b.order).map((e) => e.event);
}

/** Hands out `items` in a seeded random order, a whole round before any item comes again. */
function dealer<T>(items: readonly T[], random: Random): () => T {
  let deck: T[] = [];
  return () => {
    if (deck.length === 0) {
      deck = [...items];
      for (let i = deck.length - 1; i > 0; i -= 1) {
        const j = random.int(0, i);
        [deck[i], deck[j]] = [itemAt(deck, j), itemAt(deck, i)];
      }
    }
    const card = itemAt(deck, deck.length - 1);
    deck.pop();
    return card;
  };
}
