/**
 * `clockOffsetMs`: a provider whose clock is 10 minutes behind the machine's shows that clock in
 * every time it writes (Date header, prediction times and deadline, webhook-timestamp) and reads its list
 * filters on it.
 */
import { describe, expect, it } from '@jest/globals';
// See simulator.integration.test.ts for why the provider package is imported by path.
import { createProviderClient } from '@staging/provider/provider-client';
import type { ResponseDateObservation } from '@staging/provider/provider-client';
import { predictionInputFor, useSimulatorTestContext, waitFor } from './test-helpers';

const TOKEN = 'sim-token-clock';
const SECRET = `whsec_${Buffer.from('clock simulator signing key 32b!').toString('base64')}`;
const OFFSET_MS = -10 * 60_000;
// Time in flight and the Date header's whole second.
const SLACK_MS = 5_000;

const ctx = useSimulatorTestContext({ token: TOKEN, webhookSigningSecret: SECRET, completionDelayMs: 100, clockOffsetMs: OFFSET_MS });

describe('a provider clock 10 minutes behind', () => {
  it('shows its clock in the Date header, the prediction times and the webhook-timestamp, and filters the list on it', async () => {
    const dates: ResponseDateObservation[] = [];
    const client = createProviderClient({ baseUrl: ctx.sim.url, token: TOKEN, onResponseDate: (seen) => dates.push(seen) });
    const sentAt = Date.now();
    const created = await client.createPrediction({
      model: 'openai/gpt-image-2',
      input: predictionInputFor(`${ctx.files.origin}/photo.jpg`),
      webhook: `${ctx.receiver.origin}/hook`,
      cancelAfterSeconds: 600,
    });
    expect(dates).toHaveLength(1);
    expect(Date.parse(dates[0]!.date) - sentAt).toBeLessThan(OFFSET_MS + SLACK_MS);
    expect(Date.parse(dates[0]!.date) - sentAt).toBeGreaterThan(OFFSET_MS - SLACK_MS);
    expect(Math.abs(Date.parse(created.created_at) - sentAt - OFFSET_MS)).toBeLessThan(SLACK_MS);
    expect(Math.abs(Date.parse(created.deadline!) - Date.parse(created.created_at) - 600_000)).toBeLessThan(SLACK_MS);

    const callback = await waitFor(() => ctx.receiver.received[0], { what: 'the completion webhook' });
    const timestampMs = Number(callback.headers['webhook-timestamp']) * 1000;
    expect(Math.abs(timestampMs - Date.now() - OFFSET_MS)).toBeLessThan(SLACK_MS);
    const finished = JSON.parse(callback.rawBody.toString()) as { completed_at: string };
    expect(Math.abs(Date.parse(finished.completed_at) - Date.now() - OFFSET_MS)).toBeLessThan(SLACK_MS);

    // The span around the provider's created_at finds it; the same span on the machine's clock does not.
    const around = (centerMs: number) => ({ createdAfter: new Date(centerMs - 60_000), createdBefore: new Date(centerMs + 60_000) });
    const onProviderClock = await client.listPredictions(around(Date.parse(created.created_at)));
    expect(onProviderClock.results.map((entry) => (entry.readable ? entry.id : null))).toEqual([created.id]);
    expect((await client.listPredictions(around(sentAt))).results).toEqual([]);
  });
});
