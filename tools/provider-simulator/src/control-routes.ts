// The control API under /__sim/ that tests and the chaos command use to script faults, outages
// and completions and to read what was bought. Never part of what the worker may call.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { SimulatorConditions } from './api-routes';
import { ZFaultList } from './faults';
import { readJsonBody, sendJson, sendProblem } from './http-helpers';
import type { PredictionLifecycle } from './prediction-lifecycle';
import type { SimPrediction, SimulatorState } from './prediction-state';

export interface ControlContext {
  state: SimulatorState;
  lifecycle: PredictionLifecycle;
  conditions: SimulatorConditions;
  /** Forgets predictions, files and queued faults; stops pending timers and webhooks. */
  reset(): void;
}

export async function handleControl(ctx: ControlContext, request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
  const { state, lifecycle, conditions } = ctx;
  // Tests and the chaos audit map predictions to attempts by their callback URL, which only
  // this control view (never the /v1 API in strict mode) shows.
  const internal = (p: SimPrediction) => ({
    ...lifecycle.publicJson(p),
    webhook: p.webhook,
    webhook_events_filter: p.webhook_events_filter,
    fault: p.fault,
    deliveries: p.deliveries,
  });
  if (request.method === 'GET' && path === '/__sim/predictions') {
    const predictions = [...state.predictions.values()].map(internal);
    return sendJson(response, 200, { count: predictions.length, predictions });
  }
  if (request.method === 'GET' && path === '/__sim/create-calls') return sendJson(response, 200, { createCalls: state.createCalls });
  if (request.method === 'GET' && path === '/__sim/faults') return sendJson(response, 200, { queued: state.faults });
  if (request.method === 'POST' && path === '/__sim/faults') {
    const parsed = ZFaultList.safeParse(await readJsonBody(request));
    if (!parsed.success) return sendProblem(response, 400, 'Invalid faults', z.prettifyError(parsed.error));
    state.faults.push(...parsed.data);
    return sendJson(response, 200, { queued: state.faults });
  }
  if (request.method === 'POST' && path === '/__sim/reset') {
    ctx.reset();
    return sendJson(response, 200, { reset: true });
  }
  if (request.method === 'POST' && path === '/__sim/list-outage') {
    const parsed = z
      .strictObject({ status: z.int().min(400).max(599).nullable() })
      .optional()
      .safeParse(await readJsonBody(request));
    if (!parsed.success) return sendProblem(response, 400, 'Invalid request', z.prettifyError(parsed.error));
    conditions.listOutageStatus = parsed.data === undefined ? 503 : parsed.data.status;
    return sendJson(response, 200, { listOutageStatus: conditions.listOutageStatus });
  }
  const removeDataMatch = /^\/__sim\/predictions\/([^/]+)\/remove-data$/.exec(path);
  if (request.method === 'POST' && removeDataMatch?.[1]) {
    const prediction = state.predictions.get(decodeURIComponent(removeDataMatch[1]));
    if (!prediction) return sendProblem(response, 404, 'Not found', 'No such prediction');
    lifecycle.removeData(prediction);
    return sendJson(response, 200, internal(prediction));
  }
  const complete = /^\/__sim\/predictions\/([^/]+)\/complete$/.exec(path);
  if (request.method === 'POST' && complete?.[1]) {
    const parsed = z
      .strictObject({ status: z.enum(['succeeded', 'failed', 'aborted']).optional(), error: z.string().optional() })
      .optional()
      .safeParse(await readJsonBody(request));
    if (!parsed.success) return sendProblem(response, 400, 'Invalid request', z.prettifyError(parsed.error));
    const prediction = state.predictions.get(decodeURIComponent(complete[1]));
    if (!prediction) return sendProblem(response, 404, 'Not found', 'No such prediction');
    await lifecycle.finishNow(prediction, parsed.data ?? {});
    return sendJson(response, 200, internal(prediction));
  }
  sendProblem(response, 404, 'Not found', 'Unknown control endpoint');
}
