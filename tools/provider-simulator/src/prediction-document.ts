/**
 * The prediction object as Replicate documents it (HTTP API "get a prediction", the list
 * endpoint, and the webhook body, which "has the same structure as the object returned by the get
 * a prediction API"). Strict mode serves exactly these fields, so nothing that reads the simulator
 * can come to depend on a field the real provider does not promise (see docs/decisions/provider.md,
 * "Provider simulator: what Replicate guarantees").
 */
import type { SimPrediction } from './prediction-state';

export const DOCUMENTED_PREDICTION_FIELDS = [
  'id',
  'model',
  'version',
  'input',
  'logs',
  'output',
  'data_removed',
  'error',
  'status',
  'created_at',
  'started_at',
  'completed_at',
  'urls',
  'metrics',
  'source',
] as const;

/** In Replicate's OpenAPI prediction object but only present when they apply. */
export const OPTIONAL_PREDICTION_FIELDS = ['deadline'] as const;

/** Echoed only in lenient mode, for old tests; Replicate's documents do not include them. */
export const UNDOCUMENTED_WEBHOOK_FIELDS = ['webhook', 'webhook_events_filter'] as const;

export type SimulatorMode = 'strict' | 'lenient';

export interface DocumentContext {
  apiUrl: string;
  origin: string;
  mode: SimulatorMode;
}

export function predictionDocument(p: SimPrediction, context: DocumentContext): Record<string, unknown> {
  const document: Record<string, unknown> = {
    id: p.id,
    model: p.model,
    version: p.version,
    input: p.fault?.name === 'echo_rewritten' && p.input !== null ? rewrittenEcho(p.input, p.fault.rewrite ?? ['input_images']) : p.input,
    logs: p.logs,
    output: p.outputJson ?? p.output,
    data_removed: p.data_removed,
    error: p.error,
    status: p.status,
    created_at: p.created_at,
    started_at: p.started_at,
    completed_at: p.completed_at,
    urls: {
      get: `${context.apiUrl}/predictions/${p.id}`,
      cancel: `${context.apiUrl}/predictions/${p.id}/cancel`,
      web: `${context.origin}/p/${p.id}`,
    },
    metrics: p.metrics,
    source: p.source,
  };
  if (p.deadline !== null) document['deadline'] = p.deadline;
  if (context.mode === 'lenient') {
    document['webhook'] = p.webhook;
    document['webhook_events_filter'] = p.webhook_events_filter;
  }
  return document;
}

/**
 * The input as a provider that rewrites what it echoes would show it: copied input files under its
 * own URLs, normalized values.
 */
function rewrittenEcho(input: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const echo = { ...input };
  for (const key of keys) echo[key] = rewrittenValue(key, input[key]);
  return echo;
}

function rewrittenValue(key: string, value: unknown): unknown {
  if (key === 'input_images' && Array.isArray(value)) return value.map((_url, index) => `https://replicate.delivery/simulated/input-${index}.jpg`);
  if (typeof value === 'string') return `${value} `;
  if (typeof value === 'number') return String(value);
  return value;
}
