import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
// See simulator.integration.test.ts for why the provider package is imported by path.
import { createProviderClient } from '@staging/provider/provider-client';
import { predictionInputFor, useSimulatorTestContext, waitFor } from './test-helpers';

/**
 * Every prediction object the simulator serves (create, get, list, cancel and webhook bodies),
 * and every create body our client sends, against Replicate's own published OpenAPI document
 * (vendored in ../contract, source and date in its README).
 */
const TOKEN = 'sim-token-contract';
const SECRET = `whsec_${Buffer.from('contract test signing key 32 b!!').toString('base64')}`;
const MODEL = 'openai/gpt-image-2';

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, { content: { 'application/json': { schema: unknown } } }> }>>;
  components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
}

const openapi = JSON.parse(readFileSync(new URL('../contract/replicate-openapi.json', import.meta.url), 'utf8')) as OpenApiDocument;

function validators() {
  const document = structuredClone(openapi);
  // The one relaxation: the document types started_at and completed_at as optional strings,
  // while the simulator (and provider-contract.integration.test.ts, written against the real API)
  // keeps them null until set. Every other field is held to the document as published.
  for (const field of ['started_at', 'completed_at']) document.components.schemas['schemas_prediction_response']!.properties[field]!['nullable'] = true;
  // `nullable` is OpenAPI 3.0's keyword, which Replicate's 3.1 document still uses; Ajv knows it.
  const ajv = new Ajv({ strict: false, allErrors: true });
  // ajv-formats is CommonJS; under ESM its function is the default export's default.
  const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
  addFormats(ajv);
  ajv.addSchema({ $id: 'replicate', components: document.components, paths: document.paths });
  const at = (pointer: string): ValidateFunction => ajv.getSchema(`replicate#${pointer}`)!;
  const response = (path: string, method: string, status: string) =>
    at(`/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method}/responses/${status}/content/application~1json/schema`);
  return {
    prediction: at('/components/schemas/schemas_prediction_response'),
    modelCreateRequest: at('/components/schemas/schemas_prediction_request'),
    modelCreate: response('/models/{model_owner}/{model_name}/predictions', 'post', '201'),
    get: response('/predictions/{prediction_id}', 'get', '200'),
    list: response('/predictions', 'get', '200'),
    cancel: response('/predictions/{prediction_id}/cancel', 'post', '200'),
  };
}

const schema = validators();

function expectValid(validate: ValidateFunction, value: unknown) {
  validate(value);
  expect(validate.errors ?? []).toEqual([]);
}

const ctx = useSimulatorTestContext({ token: TOKEN, webhookSigningSecret: SECRET, completionDelayMs: 150, webhookRetryDelaysMs: [50], testCancelAfterMinimumMs: 1_000 });

async function call(path: string, init: RequestInit = {}) {
  const response = await fetch(`${ctx.sim.url}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', ...(init.headers as Record<string, string>) },
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const input = (tag: string) => predictionInputFor(`${ctx.files.origin}/photo.jpg?tag=${tag}`);

describe("the simulator's answers hold Replicate's OpenAPI document", () => {
  it('create, get, list, cancel and every webhook body', async () => {
    const created = await call(`/models/${MODEL}/predictions`, {
      method: 'POST',
      headers: { 'Cancel-After': '1m' },
      body: JSON.stringify({ input: input('all'), webhook: `${ctx.receiver.origin}/hook`, webhook_events_filter: ['start', 'output', 'logs', 'completed'] }),
    });
    expect(created.status).toBe(201);
    expect(created.json).toHaveProperty('deadline');
    expectValid(schema.modelCreate, created.json);
    const id = String(created.json['id']);
    await waitFor(() => ctx.sim.state.predictions.get(id)?.status === 'succeeded' && ctx.receiver.received.length === 4, { what: 'four callbacks' });

    const got = await call(`/predictions/${id}`);
    expectValid(schema.get, got.json);
    const listed = await call('/predictions');
    expect((listed.json['results'] as unknown[]).length).toBeGreaterThan(0);
    expectValid(schema.list, listed.json);
    for (const delivery of ctx.receiver.received) expectValid(schema.prediction, JSON.parse(delivery.rawBody.toString('utf8')));

    const running = await call(`/models/${MODEL}/predictions`, { method: 'POST', body: JSON.stringify({ input: input('cancel') }) });
    expectValid(schema.cancel, (await call(`/predictions/${String(running.json['id'])}/cancel`, { method: 'POST' })).json);
  });

  it('an aborted prediction', async () => {
    ctx.sim.enqueueFaults(['stuck_starting']);
    const created = await call(`/models/${MODEL}/predictions`, {
      method: 'POST',
      headers: { 'Cancel-After': '1s' },
      body: JSON.stringify({ input: input('aborted'), webhook: `${ctx.receiver.origin}/hook` }),
    });
    await waitFor(() => ctx.receiver.received.length === 1, { what: 'the final callback' });
    const body = JSON.parse(ctx.receiver.received[0]!.rawBody.toString('utf8')) as Record<string, unknown>;
    expect(body['status']).toBe('aborted');
    expectValid(schema.prediction, body);
    expectValid(schema.get, (await call(`/predictions/${String(created.json['id'])}`)).json);
  });

  it('fails a document Replicate would not send', () => {
    const wrong = { ...JSON.parse(JSON.stringify({ id: 'x', model: 'a/b', version: 'v', input: {}, output: null, data_removed: false, error: null, created_at: '2026-01-01T00:00:00Z', urls: { get: 'https://a/b', cancel: 'https://a/c', web: 'https://a/d' } })), status: 'queued' };
    expect(schema.prediction(wrong)).toBe(false);
  });
});

describe("our client's create body holds Replicate's request schema", () => {
  it('sends only the fields schemas_prediction_request allows', async () => {
    const sent: unknown[] = [];
    const client = createProviderClient({
      baseUrl: ctx.sim.url,
      token: TOKEN,
      fetch: (url, init) => {
        if (init?.method === 'POST' && typeof init.body === 'string') sent.push(JSON.parse(init.body));
        return fetch(url, init);
      },
    });
    await client.createPrediction({ model: MODEL, input: input('client'), webhook: `${ctx.receiver.origin}/hook`, cancelAfterSeconds: 90 });
    expect(sent).toHaveLength(1);
    expectValid(schema.modelCreateRequest, sent[0]);
  });
});
