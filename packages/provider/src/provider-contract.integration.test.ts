/**
 * One contract, two providers: the same assertions about Replicate's documented predictions API
 * (create on a model, get, list pagination, cancel, field names and types, the echoed input) run
 * against the provider simulator in strict mode (started from its CLI, as the local stack and the
 * chaos command start it) and, when REPLICATE_API_TOKEN is set, against the real API with a cheap
 * model. The real half buys two predictions of REPLICATE_CONTRACT_MODEL (default
 * black-forest-labs/flux-schnell, input REPLICATE_CONTRACT_INPUT as JSON); without the token it is
 * skipped and says so. With REPLICATE_CONTRACT_IMAGE_URL (a public photo) it also buys one
 * prediction of the staging model with the worker's exact input shape and prints how long it took
 * to be listed and whether its input came back unchanged (the facts recovery rests on).
 *
 * The simulator is spawned rather than imported: it is a tool whose own tests import this package,
 * and a package must not depend on it in return.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fingerprintPredictionInput } from './prediction-recovery';
import { createProviderClient } from './provider-client';
import { parsePrediction, PREDICTION_STATUSES } from './provider-wire';
import type { ProviderClient } from './provider-client';
import type { Prediction } from './provider-wire';

interface ContractTarget {
  baseUrl: string;
  token: string;
  model: string;
  input: Record<string, unknown>;
  /** Where the provider may call back (the simulator only calls loopback URLs). */
  webhook?: string;
  /** The simulator in strict mode must not show any field Replicate does not document. */
  documentedFieldsOnly: boolean;
  mayFinishBeforeCancel: boolean;
  pollIntervalMs: number;
  terminalTimeoutMs: number;
}

const DOCUMENTED_FIELDS = [
  'id', 'model', 'version', 'input', 'logs', 'output', 'data_removed', 'error', 'status',
  'created_at', 'started_at', 'completed_at', 'urls', 'metrics', 'source',
];
const TERMINAL = new Set(['succeeded', 'failed', 'canceled', 'aborted']);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const HTTP_URL = /^https?:\/\/\S+$/;

// 1x1 PNG: the simulator downloads and re-renders the input image, so it has to be a real one.
const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

type Json = Record<string, unknown>;

async function call(target: ContractTarget, method: 'GET' | 'POST', pathOrUrl: string, body?: unknown) {
  const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${target.baseUrl}${pathOrUrl}`;
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${target.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : {}) as Json };
}

/** Field names and types as Replicate documents them; fields it marks optional are typed when present. */
function expectDocumentedPrediction(document: Json, target: ContractTarget) {
  expect(document).toMatchObject({
    id: expect.stringMatching(/^\S+$/),
    model: expect.stringMatching(/^[^/\s]+\/[^/\s]+$/),
    input: expect.any(Object),
    status: expect.stringMatching(new RegExp(`^(${PREDICTION_STATUSES.join('|')})$`)),
    created_at: expect.stringMatching(ISO_DATE),
    urls: { get: expect.stringMatching(HTTP_URL), cancel: expect.stringMatching(HTTP_URL) },
  });
  const optional: Record<string, (value: unknown) => boolean> = {
    version: (v) => typeof v === 'string',
    logs: (v) => v === null || typeof v === 'string',
    output: (v) => v === null || typeof v === 'string' || (Array.isArray(v) && v.every((item) => typeof item === 'string')),
    data_removed: (v) => typeof v === 'boolean',
    error: (v) => v === null || typeof v === 'string',
    started_at: (v) => v === null || (typeof v === 'string' && ISO_DATE.test(v)),
    completed_at: (v) => v === null || (typeof v === 'string' && ISO_DATE.test(v)),
    metrics: (v) => v === null || (typeof v === 'object' && !Array.isArray(v)),
    source: (v) => v === 'api' || v === 'web',
  };
  const badlyTyped = Object.entries(optional)
    .filter(([field, ok]) => field in document && !ok(document[field]))
    .map(([field]) => `${field}=${JSON.stringify(document[field])}`);
  expect(badlyTyped).toEqual([]);
  if (target.documentedFieldsOnly) expect(Object.keys(document).filter((key) => !DOCUMENTED_FIELDS.includes(key))).toEqual([]);
  // The client reads every document the provider sends.
  expect(parsePrediction(document).id).toBe(document['id']);
}

async function waitForTerminal(client: ProviderClient, id: string, target: ContractTarget): Promise<Prediction> {
  const deadline = Date.now() + target.terminalTimeoutMs;
  for (;;) {
    const prediction = await client.getPrediction(id);
    if (TERMINAL.has(prediction.status)) return prediction;
    if (Date.now() > deadline) throw new Error(`prediction ${id} still ${prediction.status} after ${target.terminalTimeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, target.pollIntervalMs));
  }
}

/** The shared assertions; `target()` is read when the tests run (the simulator's port is known only then). */
function describeContract(target: () => ContractTarget) {
  const client = () => createProviderClient({ baseUrl: target().baseUrl, token: target().token, timeoutMs: 60_000 });
  const created: { first?: Json; finished?: Prediction } = {};
  const timeout = () => target().terminalTimeoutMs + 30_000;

  it('creates a prediction on a model and answers with the documented object, input echoed as sent', async () => {
    const t = target();
    const [owner, name] = t.model.split('/');
    const { status, json } = await call(t, 'POST', `/models/${owner}/${name}/predictions`, {
      input: t.input,
      ...(t.webhook ? { webhook: t.webhook, webhook_events_filter: ['start', 'completed'] } : {}),
    });
    expect(status).toBe(201);
    expectDocumentedPrediction(json, t);
    expect(json['model']).toBe(t.model);
    expect(json['input']).toEqual(t.input);
    created.first = json;
  }, 90_000);

  it('gets it until it succeeds with an array of output URIs', async () => {
    const t = target();
    const id = String(created.first?.['id']);
    const { json } = await call(t, 'GET', `/predictions/${id}`);
    expectDocumentedPrediction(json, t);
    expect(json['id']).toBe(id);
    const finished = await waitForTerminal(client(), id, t);
    expect(finished).toMatchObject({ status: 'succeeded', error: null, completed_at: expect.stringMatching(ISO_DATE) });
    expect(finished.output).toEqual([expect.stringMatching(HTTP_URL)]);
    expectDocumentedPrediction((await call(t, 'GET', `/predictions/${id}`)).json, t);
    created.finished = finished;
  }, timeout());

  it('lists newest first, at most 100 a page, with next and previous as URLs or null', async () => {
    const t = target();
    const { status, json } = await call(t, 'GET', '/predictions');
    expect(status).toBe(200);
    expect(Object.keys(json)).toEqual(expect.arrayContaining(['next', 'previous', 'results']));
    const results = json['results'] as Json[];
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(100);
    results.forEach((document) => expectDocumentedPrediction(document, t));
    const created = results.map((document) => Date.parse(String(document['created_at'])));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    for (const link of [json['next'], json['previous']]) {
      if (link !== null) expect(link).toEqual(expect.stringMatching(/^https?:\/\/\S+[?&]cursor=\S+$/));
    }
    if (json['next'] !== null) {
      const older = await call(t, 'GET', String(json['next']));
      const olderResults = older.json['results'] as Json[];
      expect(Date.parse(String(olderResults[0]?.['created_at']))).toBeLessThanOrEqual(created[created.length - 1] ?? 0);
      expect(older.json['previous']).toEqual(expect.stringMatching(/^https?:\/\/\S+[?&]cursor=\S+$/));
    }
    // The client follows the same cursors.
    const page = await client().listPredictions();
    expect(page.results.map((p) => (p.readable ? p.id : null))).toEqual(results.map((document) => document['id']));
  }, 90_000);

  it('returns a finished prediction unchanged when asked to cancel it', async () => {
    const t = target();
    const id = String(created.finished?.id);
    const { status, json } = await call(t, 'POST', `/predictions/${id}/cancel`);
    expect(status).toBe(200);
    expectDocumentedPrediction(json, t);
    expect(json).toMatchObject({ id, status: 'succeeded', completed_at: created.finished?.completed_at });
  }, 90_000);

  it('cancels a running prediction', async () => {
    const t = target();
    const [owner, name] = t.model.split('/');
    const fresh = await call(t, 'POST', `/models/${owner}/${name}/predictions`, { input: t.input });
    expect(fresh.status).toBe(201);
    const id = String(fresh.json['id']);
    const { status, json } = await call(t, 'POST', `/predictions/${id}/cancel`);
    expect(status).toBe(200);
    expectDocumentedPrediction(json, t);
    const final = await waitForTerminal(client(), id, t);
    // A fast real model may finish before the cancel arrives; then it is left as it is.
    expect(t.mayFinishBeforeCancel ? ['canceled', 'succeeded'] : ['canceled']).toContain(final.status);
  }, timeout());

  it('describes openai/gpt-image-2 with the inputs the worker checks', async () => {
    const model = await client().getModel('openai', 'gpt-image-2');
    expect(model.input.aspectRatio).toEqual(expect.arrayContaining(['1:1', '3:2', '2:3']));
    expect(model.input.outputFormat).toEqual(expect.arrayContaining(['jpeg', 'png', 'webp']));
    expect(model.input.quality).toEqual(expect.arrayContaining(['low', 'medium', 'high', 'auto']));
    expect(model.input.outputCompression).toEqual({ minimum: 0, maximum: 100 });
    expect(model.input.inputNames).toEqual(expect.arrayContaining(['prompt', 'input_images', 'user_id']));
  }, 90_000);
}

// ---- The simulator, strict mode, started from its CLI -----------------------------------------

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
const SIM_TOKEN = 'contract-sim-token';
let simulator: ChildProcess | undefined;
let helper: Server | undefined;
const simTarget = {} as ContractTarget;

async function startSimulatorCli(): Promise<string> {
  const child = spawn(path.join(repoRoot, 'node_modules/.bin/tsx'), [path.join(repoRoot, 'tools/provider-simulator/src/cli.ts')], {
    env: {
      PATH: process.env['PATH'] ?? '',
      SIM_PORT: '0',
      SIM_TOKEN,
      SIM_WEBHOOK_SECRET: `whsec_${Buffer.from('contract test signing secret 32b').toString('base64')}`,
      SIM_COMPLETION_DELAY_MS: '400',
      SIM_WEBHOOK_RETRY_DELAYS_MS: '50',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  simulator = child;
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`simulator exited (${code}): ${stderr}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((l) => l.includes('provider_simulator_started'));
      if (line) resolve((JSON.parse(line) as { url: string; mode: string }).url);
    });
  });
}

/** Serves the input photo and swallows callbacks (their shape is the simulator's own tests' business). */
async function startHelperServer(): Promise<string> {
  helper = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': TINY_PNG.length });
        res.end(TINY_PNG);
        return;
      }
      res.writeHead(204);
      res.end();
    });
  });
  await new Promise<void>((resolve) => helper?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(helper.address() as AddressInfo).port}`;
}

describe('provider contract: simulator (strict mode, from its CLI)', () => {
  beforeAll(async () => {
    const origin = await startHelperServer();
    Object.assign(simTarget, {
      baseUrl: await startSimulatorCli(),
      token: SIM_TOKEN,
      model: 'openai/gpt-image-2',
      input: {
        prompt: 'Stage this room as a bright living room',
        input_images: [`${origin}/photo.png?X-Amz-Signature=contract`],
        aspect_ratio: '1:1',
        quality: 'low',
        output_format: 'png',
        output_compression: 90,
        user_id: 'c'.repeat(64),
      },
      webhook: `${origin}/api/webhooks/provider/staging/contract`,
      documentedFieldsOnly: true,
      mayFinishBeforeCancel: false,
      pollIntervalMs: 50,
      terminalTimeoutMs: 15_000,
    } satisfies ContractTarget);
  });

  afterAll(async () => {
    if (simulator && simulator.exitCode === null) {
      const exited = new Promise((resolve) => simulator?.once('exit', resolve));
      simulator.kill('SIGTERM');
      await exited;
    }
    helper?.closeAllConnections();
    await new Promise((resolve) => helper?.close(resolve));
  });

  describeContract(() => simTarget);
});

// ---- The real Replicate API, only with a token ------------------------------------------------

const realToken = process.env['REPLICATE_API_TOKEN'];

if (realToken) {
  describe('provider contract: real Replicate API', () => {
    const realTarget: ContractTarget = {
      baseUrl: process.env['REPLICATE_API_BASE_URL'] || 'https://api.replicate.com/v1',
      token: realToken,
      model: process.env['REPLICATE_CONTRACT_MODEL'] || 'black-forest-labs/flux-schnell',
      input: JSON.parse(process.env['REPLICATE_CONTRACT_INPUT'] || '{"prompt":"a plain red square on a white background","num_outputs":1}') as Json,
      documentedFieldsOnly: false,
      mayFinishBeforeCancel: true,
      pollIntervalMs: 2_000,
      terminalTimeoutMs: 180_000,
    };
    describeContract(() => realTarget);

    // The facts recovery of a lost create response rests on (docs/decisions/staging.md "Evidence for an
    // unknown create"), measured with the worker's own input shape. Buys one prediction of the
    // staging model, canceled as soon as it is seen; needs a public photo URL.
    const photoUrl = process.env['REPLICATE_CONTRACT_IMAGE_URL'];
    (photoUrl ? it : it.skip)('reports how long our kind of prediction takes to be listed and whether its input comes back unchanged', async () => {
      const client = createProviderClient({ baseUrl: realTarget.baseUrl, token: realToken, timeoutMs: 60_000 });
      // As long as a presigned S3 URL; public hosts ignore the unknown query parameters.
      const signed = `${photoUrl}${photoUrl?.includes('?') ? '&' : '?'}X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${'A'.repeat(60)}&X-Amz-Date=20261127T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=${'0'.repeat(64)}`;
      const input = {
        prompt: 'Virtually stage this photo of a living room in modern style.',
        input_images: [signed],
        aspect_ratio: '3:2',
        quality: 'low',
        output_format: 'jpeg',
        output_compression: 92,
        user_id: 'u_contract_test_0123456789abcdef',
      };
      const created = await client.createPrediction({
        model: process.env['REPLICATE_CONTRACT_STAGING_MODEL'] || 'openai/gpt-image-2',
        input,
        webhook: process.env['REPLICATE_CONTRACT_WEBHOOK_URL'] || 'https://example.com/replicate-contract-callback',
        webhookEventsFilter: ['start', 'completed'],
        cancelAfterSeconds: 300,
      });
      const createdAt = Date.parse(created.created_at);
      const startedLookingAt = Date.now();
      let listed = null;
      while (listed === null && Date.now() - startedLookingAt < 600_000) {
        const page = await client.listPredictions({ createdAfter: new Date(createdAt - 60_000), createdBefore: new Date(createdAt + 60_000) });
        listed = page.results.find((entry) => entry.readable && entry.id === created.id) ?? null;
        if (listed === null) await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      await client.cancelPrediction(created.id).catch(() => undefined);
      const echo = listed?.readable ? listed.input : null;
      console.log(
        JSON.stringify({
          event: 'replicate_contract_facts',
          listedAfterMs: listed === null ? null : Date.now() - startedLookingAt,
          // The seven sent values, key order aside (what recovery compares).
          inputEchoedUnchanged: echo !== null && fingerprintPredictionInput(echo) === fingerprintPredictionInput(input),
          echoedKeys: echo === null ? null : Object.keys(echo).sort(),
          createEchoUnchanged: created.input !== undefined && fingerprintPredictionInput(created.input) === fingerprintPredictionInput(input),
        }),
      );
      expect(listed).not.toBeNull();
    }, 700_000);
  });
} else {
  const reason = 'REPLICATE_API_TOKEN is not set; set it to also run these assertions against the real API (buys two cheap predictions)';
  console.warn(`provider contract: the real Replicate API half was SKIPPED: ${reason}`);
  describe(`provider contract: real Replicate API (SKIPPED: ${reason})`, () => {
    it.skip('runs the same contract against https://api.replicate.com/v1', () => undefined);
  });
}
