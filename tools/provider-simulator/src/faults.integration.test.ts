import { describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
// See simulator.integration.test.ts for why the provider package is imported by path.
import { createProviderClient } from '@staging/provider/provider-client';
import { ProviderError } from '@staging/provider/provider-error';
import type { Prediction } from '@staging/provider/provider-wire';
import { classifyTerminalPrediction } from '@staging/provider/prediction-status';
import { verifyWebhook } from '@staging/provider/webhook-signing';
import { FAULT_NAMES } from './faults';
import type { FaultName, FaultSpec } from './faults';
import { predictionInputFor, useSimulatorTestContext, waitFor } from './test-helpers';

const TOKEN = 'sim-token-faults';
const SECRET = `whsec_${Buffer.from('another simulator signing key!!!').toString('base64')}`;
const MODEL = 'openai/gpt-image-2';
const DELAY_MS = 150;
const OUTPUT_CEILING = 20 * 1024 * 1024;

const ctx = useSimulatorTestContext({
  token: TOKEN,
  webhookSigningSecret: SECRET,
  completionDelayMs: DELAY_MS,
  webhookRetryDelaysMs: [50],
  // Deadline tests run in a second, not in Replicate's 5 s minimum (refusal tested below).
  testCancelAfterMinimumMs: 1_000,
});
const covered = new Set<FaultName>();

const api = () => createProviderClient({ baseUrl: ctx.sim.url, token: TOKEN });

// A per-attempt query string, as a presigned URL would have, makes every input unique.
const inputFor = (attempt: string) =>
  predictionInputFor(`${ctx.files.origin}/photo.jpg?attempt=${attempt}`, { prompt: 'Stage as a cozy bedroom', quality: 'low' });

function create(attempt: string, webhookEventsFilter?: ('start' | 'output' | 'logs' | 'completed')[], cancelAfterSeconds?: number) {
  return api().createPrediction({
    model: MODEL,
    input: inputFor(attempt),
    webhook: `${ctx.receiver.origin}/api/webhooks/provider/staging/${attempt}`,
    ...(webhookEventsFilter ? { webhookEventsFilter } : {}),
    ...(cancelAfterSeconds === undefined ? {} : { cancelAfterSeconds }),
  });
}

/** The statuses of the callbacks received so far, in arrival order. */
function receivedStatuses(): string[] {
  return ctx.receiver.received.map((d) => verifyWebhook({ secret: SECRET, rawBody: d.rawBody, headers: d.headers }).status);
}

function script(...faults: (FaultName | FaultSpec)[]) {
  for (const fault of faults) covered.add(typeof fault === 'string' ? fault : fault.name);
  ctx.sim.enqueueFaults(faults);
}

async function terminal(id: string): Promise<Prediction> {
  return waitFor(
    () => {
      const p = ctx.sim.state.predictions.get(id);
      return p && ['succeeded', 'failed', 'canceled', 'aborted'].includes(p.status) ? p : undefined;
    },
    { what: `prediction ${id} to finish` },
  ).then(() => api().getPrediction(id));
}

function outputUrl(prediction: Prediction): string {
  const url = Array.isArray(prediction.output) ? prediction.output[0] : prediction.output;
  if (!url) throw new Error('prediction has no output');
  return url;
}

async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('failures', () => {
  it('fail: ends failed with an error the provider package classifies as retryable', async () => {
    script('fail');
    const result = await terminal((await create('att-fail')).id);
    expect(result.status).toBe('failed');
    expect(result.output).toBeNull();
    expect(classifyTerminalPrediction(result)).toBe('retryable_failure');
    await waitFor(() => ctx.receiver.received.length === 1, { what: 'failure webhook' });
    expect(verifyWebhook({ secret: SECRET, rawBody: ctx.receiver.received[0]?.rawBody ?? '', headers: ctx.receiver.received[0]?.headers ?? {} }).status).toBe('failed');
  });

  it('fail_permanent: ends failed with a safety error classified as permanent', async () => {
    script('fail_permanent');
    const result = await terminal((await create('att-perm')).id);
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/sensitive/);
    expect(classifyTerminalPrediction(result)).toBe('permanent_failure');
  });

  it('faults are consumed in order, one per creation', async () => {
    script('fail', 'fail_permanent');
    const first = await create('att-o1');
    const second = await create('att-o2');
    const third = await create('att-o3');
    expect(classifyTerminalPrediction(await terminal(first.id))).toBe('retryable_failure');
    expect(classifyTerminalPrediction(await terminal(second.id))).toBe('permanent_failure');
    expect((await terminal(third.id)).status).toBe('succeeded');
  });
});

describe('create-time faults', () => {
  it('http_500: answers 500 without creating, then the next create works', async () => {
    script('http_500');
    const error = await rejection(create('att-500'));
    expect(error.kind).toBe('server');
    expect(ctx.sim.state.predictions.size).toBe(0);
    await create('att-500b');
    expect(ctx.sim.state.predictions.size).toBe(1);
    // The record of create calls keeps the refused one too: a start slot was spent on it.
    const calls = (await (await fetch(`${ctx.sim.url.replace(/\/v1$/, '')}/__sim/create-calls`)).json()) as { createCalls: { webhook: string }[] };
    expect(calls.createCalls.map((call) => call.webhook.split('/').at(-1))).toEqual(['att-500', 'att-500b']);
  });

  it('http_429: answers 429 with only the throttled detail (no Retry-After), without creating', async () => {
    script('http_429', { name: 'http_429', retryAfterSeconds: 4 });
    const first = await rejection(create('att-429'));
    expect(first).toMatchObject({ kind: 'throttled', status: 429, retryAfterSeconds: 1 });
    expect(first.message).toContain('Request was throttled');
    expect((await rejection(create('att-429b'))).retryAfterSeconds).toBe(4);
    expect(ctx.sim.state.predictions.size).toBe(0);
  });

  it('response_lost: buys the prediction but drops the connection; the list shows it by its echoed input and it still calls back', async () => {
    script('response_lost');
    const error = await rejection(create('att-lost'));
    expect(error.kind).toBe('network');
    expect(ctx.sim.state.predictions.size).toBe(1);
    const { results } = await api().listPredictions();
    const found = results.find((p) => p.readable && JSON.stringify(p.input) === JSON.stringify(inputFor('att-lost')));
    expect(found).toBeDefined();
    await waitFor(() => ctx.receiver.received.length === 1, { what: 'webhook of the lost create' });
    expect(verifyWebhook({ secret: SECRET, rawBody: ctx.receiver.received[0]?.rawBody ?? '', headers: ctx.receiver.received[0]?.headers ?? {} }).id).toBe(found?.readable && found.id);
  });
});

describe('timing faults', () => {
  it('slow: still processing when a normal prediction created after it has finished, then succeeds', async () => {
    script({ name: 'slow', delayMs: 30_000 });
    const slow = await create('att-slow');
    const normal = await create('att-normal');
    expect((await terminal(normal.id)).status).toBe('succeeded');
    // Ordering, not a duration: the scripted delay outlasts a whole normal prediction.
    expect((await api().getPrediction(slow.id)).status).toBe('processing');
    await ctx.sim.completePrediction(slow.id);
    expect((await terminal(slow.id)).status).toBe('succeeded');
  });

  it('never_complete: stays processing until forced to complete', async () => {
    script('never_complete');
    const created = await create('att-never');
    const normal = await create('att-normal-2');
    expect((await terminal(normal.id)).status).toBe('succeeded');
    expect((await api().getPrediction(created.id)).status).toBe('processing');
    const callbacksOf = (id: string) => ctx.receiver.received.filter((r) => (JSON.parse(r.rawBody.toString('utf8')) as { id: string }).id === id);
    expect(callbacksOf(created.id)).toHaveLength(0);
    await ctx.sim.completePrediction(created.id);
    expect((await api().getPrediction(created.id)).status).toBe('succeeded');
    await waitFor(() => callbacksOf(created.id).length === 1, { what: 'webhook after forced completion' });
  });
});

describe('webhook faults', () => {
  it('duplicate_webhook: delivers the completion twice with the same webhook-id, both valid', async () => {
    script('duplicate_webhook');
    const created = await create('att-dup');
    await waitFor(() => ctx.receiver.received.length === 2, { what: 'two deliveries' });
    const [a, b] = ctx.receiver.received;
    expect(a?.headers['webhook-id']).toBe(b?.headers['webhook-id']);
    for (const delivery of [a, b]) {
      expect(verifyWebhook({ secret: SECRET, rawBody: delivery?.rawBody ?? '', headers: delivery?.headers ?? {} }).id).toBe(created.id);
    }
  });

  it('no_webhook: completes without calling back, so only polling sees it', async () => {
    script('no_webhook');
    const created = await create('att-quiet', ['start', 'completed']);
    expect((await terminal(created.id)).status).toBe('succeeded');
    // The callback would have been queued when the prediction finished; settle() drains it.
    await ctx.sim.settle();
    expect(ctx.sim.state.predictions.get(created.id)?.deliveries).toEqual([]);
    expect(ctx.receiver.received).toHaveLength(0);
  });

  it('no_webhook with events: loses only the named callbacks', async () => {
    script({ name: 'no_webhook', events: ['completed'] });
    const created = await create('att-half', ['start', 'completed']);
    expect((await terminal(created.id)).status).toBe('succeeded');
    await ctx.sim.settle();
    expect(ctx.sim.state.predictions.get(created.id)?.deliveries.map((d) => d.event)).toEqual(['start']);
    expect(ctx.receiver.received).toHaveLength(1);
  });
});

describe('output faults', () => {
  it('truncated_output: serves a cut-off image that does not decode', async () => {
    script('truncated_output');
    const response = await fetch(outputUrl(await terminal((await create('att-trunc')).id)));
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8])); // starts like a JPEG
    await expect(sharp(bytes, { failOn: 'truncated' }).raw().toBuffer()).rejects.toThrow();
  });

  it('non_image_output: serves HTML while claiming an image content type', async () => {
    script('non_image_output');
    const response = await fetch(outputUrl(await terminal((await create('att-html')).id)));
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.toString('utf8')).toContain('<html>');
    await expect(sharp(bytes).metadata()).rejects.toThrow();
  });

  it('oversize_output: streams more than 20 MiB without a Content-Length', async () => {
    script('oversize_output');
    const response = await fetch(outputUrl(await terminal((await create('att-big')).id)));
    expect(response.headers.get('content-length')).toBeNull();
    let total = 0;
    const reader = response.body?.getReader();
    for (;;) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      total += chunk.value.length;
    }
    expect(total).toBeGreaterThan(OUTPUT_CEILING);
  });

  it('oversize_output: a client that stops reading at the ceiling does not hang the simulator', async () => {
    script('oversize_output');
    const response = await fetch(outputUrl(await terminal((await create('att-big2')).id)));
    const reader = response.body?.getReader();
    let total = 0;
    while (total <= OUTPUT_CEILING) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      total += chunk.value.length;
    }
    await reader?.cancel();
    expect(total).toBeGreaterThan(OUTPUT_CEILING);
    // The simulator still answers afterwards.
    expect((await api().listPredictions()).results).toHaveLength(1);
  });

  it('wrong_aspect_ratio: serves a valid image whose ratio differs from the request', async () => {
    script('wrong_aspect_ratio');
    const response = await fetch(outputUrl(await terminal((await create('att-ratio')).id)));
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.width && meta.height ? meta.width / meta.height : 1).not.toBeCloseTo(1, 2);
  });
});

describe('what a real account does', () => {
  const listedIds = async () => (await api().listPredictions()).results.map((p) => (p.readable ? p.id : null));

  it('list_lag: get answers at once, the list shows the prediction only after the lag', async () => {
    script({ name: 'list_lag', listLagMs: 400 });
    const created = await create('att-lag');
    expect((await api().getPrediction(created.id)).id).toBe(created.id);
    expect(await listedIds()).not.toContain(created.id);
    await waitFor(async () => (await listedIds()).includes(created.id), { what: 'the lagging prediction in the list' });
  });

  it('responseLost on another fault: a lost response whose prediction the list does not show yet', async () => {
    script({ name: 'list_lag', events: ['start'], listLagMs: 60_000, responseLost: true });
    await rejection(create('att-lost-lag'));
    expect(ctx.sim.state.predictions.size).toBe(1);
    expect(await listedIds()).toEqual([]);
  });

  it('foreign_predictions: the list holds other models, website runs, object outputs and null inputs, none of them ours', async () => {
    script('foreign_predictions');
    const created = await create('att-foreign');
    const { results } = await api().listPredictions();
    expect(results).toHaveLength(6);
    expect(results.every((p) => p.readable)).toBe(true);
    const raw = (await (await fetch(`${ctx.sim.url}/predictions`, { headers: { Authorization: `Bearer ${TOKEN}` } })).json()) as {
      results: Record<string, unknown>[];
    };
    expect(raw.results.map((p) => p['source'])).toContain('web');
    expect(raw.results.some((p) => p['input'] === null)).toBe(true);
    expect(raw.results.some((p) => typeof p['output'] === 'object' && p['output'] !== null && !Array.isArray(p['output']))).toBe(true);
    // Not purchases of this token: the control view (and every audit) sees only ours.
    expect([...ctx.sim.state.predictions.keys()]).toEqual([created.id]);
  });

  it('echo_rewritten: the echoed image URL is not the one sent', async () => {
    script('echo_rewritten');
    const created = await create('att-echo');
    const echoed = (await api().getPrediction(created.id)).input?.['input_images'];
    expect(echoed).toEqual([expect.stringContaining('replicate.delivery')]);
    expect(echoed).not.toEqual(inputFor('att-echo').input_images);
  });

  it('echo_rewritten with rewrite: the named keys are echoed altered, the image URL as sent', async () => {
    script({ name: 'echo_rewritten', rewrite: ['user_id', 'output_compression'] });
    const created = await create('att-echo-fixed');
    const echoed = (await api().getPrediction(created.id)).input;
    const sent = inputFor('att-echo-fixed');
    expect(echoed).toMatchObject({ input_images: sent.input_images, user_id: `${sent.user_id} `, output_compression: String(sent.output_compression) });
  });

  it('http_500_after_create: answers 500 although the prediction was created and runs', async () => {
    script('http_500_after_create');
    const error = await rejection(create('att-500-after'));
    expect(error.kind).toBe('server');
    const [bought] = [...ctx.sim.state.predictions.values()];
    expect((await terminal(bought!.id)).status).toBe('succeeded');
  });

  it('throttle_reads: the next gets and lists are answered 429, creates are not', async () => {
    script({ name: 'throttle_reads', count: 2 });
    const created = await create('att-reads');
    expect((await rejection(api().getPrediction(created.id))).kind).toBe('throttled');
    expect((await rejection(api().listPredictions())).kind).toBe('throttled');
    expect((await api().getPrediction(created.id)).id).toBe(created.id);
  });

  it('duplicate_webhook_new_id: delivers the completion twice under different webhook-ids', async () => {
    script('duplicate_webhook_new_id');
    const created = await create('att-dup-new');
    await waitFor(() => ctx.receiver.received.length === 2, { what: 'two deliveries' });
    const [a, b] = ctx.receiver.received;
    expect(a?.headers['webhook-id']).not.toBe(b?.headers['webhook-id']);
    for (const delivery of [a, b]) {
      expect(verifyWebhook({ secret: SECRET, rawBody: delivery?.rawBody ?? '', headers: delivery?.headers ?? {} }).id).toBe(created.id);
    }
  });
});

describe('Cancel-After', () => {
  it('cancels a prediction still running at its deadline (billed) and calls back', async () => {
    script('never_complete');
    const created = await api().createPrediction({
      model: MODEL,
      input: inputFor('att-deadline'),
      webhook: `${ctx.receiver.origin}/api/webhooks/provider/staging/att-deadline`,
      cancelAfterSeconds: 1,
    });
    expect((await terminal(created.id)).status).toBe('canceled');
    await waitFor(() => ctx.receiver.received.length === 1, { what: 'the final webhook' });
  });

  it('refuses a Cancel-After that is not a duration', async () => {
    const response = await fetch(`${ctx.sim.url}/models/${MODEL}/predictions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', 'Cancel-After': 'soon' },
      body: JSON.stringify({ input: inputFor('att-bad-deadline') }),
    });
    expect(response.status).toBe(400);
    expect(ctx.sim.state.predictions.size).toBe(0);
  });

  it('aborts a prediction that has not started by its deadline (not billed) and calls back', async () => {
    script('stuck_starting');
    const created = await create('att-stuck', undefined, 1);
    expect(created.status).toBe('starting');
    const deadline = Date.parse(created.deadline ?? '');
    expect(deadline - Date.parse(created.created_at)).toBe(1_000);
    const result = await terminal(created.id);
    expect(result.status).toBe('aborted');
    expect(result.started_at ?? null).toBeNull();
    expect(classifyTerminalPrediction(result)).toBe('retryable_failure');
    await waitFor(() => ctx.receiver.received.length === 1, { what: 'the final webhook' });
    expect(receivedStatuses()).toEqual(['aborted']);
  });

  it('stuck_starting: without a deadline it stays starting until canceled', async () => {
    script('stuck_starting');
    const created = await create('att-stuck-cancel');
    await api().getPrediction(created.id);
    expect(ctx.sim.state.predictions.get(created.id)?.status).toBe('starting');
    expect((await api().cancelPrediction(created.id)).status).toBe('canceled');
  });
});

describe('deadlines and races', () => {
  it('aborted_before_start: ends aborted without ever starting, and calls back', async () => {
    script('aborted_before_start');
    const result = await terminal((await create('att-aborted')).id);
    expect(result).toMatchObject({ status: 'aborted', output: null });
    expect(result.started_at ?? null).toBeNull();
    await waitFor(() => ctx.receiver.received.length === 1, { what: 'the final webhook' });
    expect(receivedStatuses()).toEqual(['aborted']);
  });

  it('webhooks_out_of_order: the final callback arrives first, the older ones after it', async () => {
    script('webhooks_out_of_order');
    const created = await create('att-order', ['start', 'logs', 'completed']);
    await terminal(created.id);
    await waitFor(() => ctx.receiver.received.length === 3, { what: 'three callbacks' });
    expect(receivedStatuses()).toEqual(['succeeded', 'processing', 'starting']);
  });

  it('webhook_before_response: the final callback is delivered before the create is answered', async () => {
    script('webhook_before_response');
    const created = await create('att-early');
    expect(ctx.receiver.received).toHaveLength(1);
    expect(verifyWebhook({ secret: SECRET, rawBody: ctx.receiver.received[0]!.rawBody, headers: ctx.receiver.received[0]!.headers }).id).toBe(created.id);
    expect(created.status).toBe('succeeded');
  });

  it('cancel_loses_race: the cancel is answered running, then the prediction succeeds', async () => {
    script({ name: 'cancel_loses_race', delayMs: 2_000 });
    const created = await create('att-race');
    await waitFor(() => ctx.sim.state.predictions.get(created.id)?.status === 'processing', { what: 'processing' });
    expect((await api().cancelPrediction(created.id)).status).toBe('processing');
    expect((await terminal(created.id)).status).toBe('succeeded');
  });

  it('accepted_202: the create is answered 202 with the prediction, which the client takes', async () => {
    script('accepted_202');
    const response = await fetch(`${ctx.sim.url}/models/${MODEL}/predictions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ input: inputFor('att-202') }),
    });
    expect(response.status).toBe(202);
    expect(((await response.json()) as { status: string }).status).toBe('starting');
  });
});

describe('list filters', () => {
  it('honours created_after and created_before, and carries them into the next URL', async () => {
    const first = await create('att-f1');
    const second = await create('att-f2');
    const page = await api().listPredictions({ createdAfter: new Date(second.created_at) });
    expect(page.results.map((p) => (p.readable ? p.id : null))).toEqual([second.id]);
    const before = await api().listPredictions({ createdBefore: new Date(second.created_at) });
    expect(before.results.map((p) => (p.readable ? p.id : null))).toEqual([first.id]);
  });
});

// Declared last, so it runs after every test above has scripted its fault.
it('has a test for every fault the simulator offers', () => {
  expect([...covered].sort()).toEqual([...FAULT_NAMES].sort());
});
