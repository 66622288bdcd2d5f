// Which of a prediction's events become callbacks (its filter, the events its fault loses), and
// how each goes out: once, twice (duplicate faults) or held back until after the final one.
import type { FaultSpec } from './faults';
import type { predictionDocument } from './prediction-document';
import type { ProviderClock } from './provider-clock';
import type { SimPrediction } from './prediction-state';
import { createWebhookSender, newWebhookId } from './webhook-delivery';
import type { WebhookEvent } from './webhook-delivery';

/** Replicate: "By default, Replicate sends requests ... whenever there are new outputs or the prediction has finished." */
const DEFAULT_WEBHOOK_EVENTS: readonly WebhookEvent[] = ['output', 'completed'];

/** no_webhook loses every event unless told which; any other fault loses only those it names. */
function lostEvents(fault: FaultSpec | null, event: WebhookEvent): WebhookEvent[] {
  if (fault?.name === 'no_webhook') return fault.events ?? [event];
  return fault?.events ?? [];
}

export function wantsWebhook(p: SimPrediction, event: WebhookEvent): p is SimPrediction & { webhook: string } {
  if (!p.webhook) return false;
  const filter = p.webhook_events_filter.length > 0 ? p.webhook_events_filter : DEFAULT_WEBHOOK_EVENTS;
  if (!filter.includes(event)) return false;
  return !lostEvents(p.fault, event).includes(event);
}

export interface PredictionWebhookSettings {
  webhookSigningSecret: string;
  clock: ProviderClock;
  retryDelaysMs: number[];
  webhookTimeoutMs: number;
}

export interface PredictionWebhookHooks {
  publicJson(p: SimPrediction): ReturnType<typeof predictionDocument>;
  /** Keeps a delivery visible to settle() and stop(). */
  track(promise: Promise<unknown>): Promise<unknown>;
  /** Called after each recorded delivery attempt. */
  changed(): void;
  /** Aborted on reset, ending deliveries in flight. */
  signal(): AbortSignal;
  /** The prediction's held callbacks (webhooks_out_of_order); undefined once its course is forgotten. */
  heldFor(id: string): (() => void)[] | undefined;
}

export function createPredictionWebhooks(settings: PredictionWebhookSettings, hooks: PredictionWebhookHooks) {
  const deliver = createWebhookSender(settings.webhookSigningSecret, settings.clock);

  /** Sends the prediction as it is now; only `completed` is redelivered ("We do not retry any webhooks for intermediate states"). */
  return function sendWebhook(p: SimPrediction, event: WebhookEvent): void {
    if (!wantsWebhook(p, event)) return;
    const url = p.webhook;
    const webhookId = newWebhookId();
    const body = JSON.stringify(hooks.publicJson(p));
    const predictionStatus = p.status;
    const duplicated = event === 'completed' && (p.fault?.name === 'duplicate_webhook' || p.fault?.name === 'duplicate_webhook_new_id');
    const copies = duplicated ? 2 : 1;
    const signal = hooks.signal();
    const send = () =>
      hooks.track(
        (async () => {
          for (let copy = 0; copy < copies; copy += 1) {
            await deliver({
              event,
              url,
              // "Identical webhooks can be sent more than once": as a redelivery (same id) or anew.
              webhookId: copy > 0 && p.fault?.name === 'duplicate_webhook_new_id' ? newWebhookId() : webhookId,
              body,
              predictionStatus,
              retryDelaysMs: event === 'completed' ? settings.retryDelaysMs : [],
              timeoutMs: settings.webhookTimeoutMs,
              record: (attempt) => {
                p.deliveries.push(attempt);
                hooks.changed();
              },
              signal,
            });
          }
        })(),
      );
    const held = hooks.heldFor(p.id);
    if (p.fault?.name !== 'webhooks_out_of_order' || !held) return void send();
    // Each body is the prediction as it was when the event happened; only the order is wrong.
    // Deliveries are tracked for shutdown, not awaited: a held one is sent later the same way.
    if (event !== 'completed') return void held.push(() => void send());
    void send();
    for (const later of held.splice(0).reverse()) later();
  };
}
