// What the simulator holds in memory: the predictions it made, the rest of the account, queued
// faults and output files. Every other module of the simulator reads and writes these shapes.
import { randomBytes } from 'node:crypto';
import type { FaultSpec } from './faults';
import type { WebhookDeliveryAttempt, WebhookEvent } from './webhook-delivery';

export type SimPredictionStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'aborted';

export interface SimPrediction {
  id: string;
  model: string;
  version: string;
  /** Exactly as the creator sent it (defaults are not filled in), {} once removed; null for some foreign runs. */
  input: Record<string, unknown> | null;
  status: SimPredictionStatus;
  output: string[] | null;
  /** Any other JSON output (foreign predictions of other models); served instead of `output`. */
  outputJson?: unknown;
  /** How it was created: 'web' for runs from the website. */
  source: 'api' | 'web';
  /** Epoch ms from which the list shows it (Replicate does not promise to list a new prediction at once). */
  listedFrom: number;
  error: string | null;
  logs: string;
  /** True once input, output, logs and files are removed (dataRetentionMs after completion). */
  data_removed: boolean;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  /** When Cancel-After ends it ("the absolute time at which the prediction will be automatically canceled"); null without one. */
  deadline: string | null;
  /** Internal: never in a public prediction object in strict mode. */
  webhook: string | null;
  /** Internal: as requested ([] = not given, i.e. Replicate's default). */
  webhook_events_filter: WebhookEvent[];
  metrics: Record<string, number>;
  /** Creation order; list pagination and cursors use it. */
  seq: number;
  fault: FaultSpec | null;
  deliveries: WebhookDeliveryAttempt[];
}

export type OutputFile =
  | { kind: 'bytes'; contentType: string; data: Buffer }
  /** Streamed without Content-Length: `prefix`, then filler up to totalBytes. */
  | { kind: 'oversize'; contentType: string; prefix: Buffer; totalBytes: number };

export interface SimulatorState {
  /** What this simulator's token bought: every prediction a create call made. */
  predictions: Map<string, SimPrediction>;
  /** The rest of the account (other models, tokens, website runs): listed and readable, never ours. */
  foreign: Map<string, SimPrediction>;
  /** Faults waiting for the next creations, in order. */
  faults: FaultSpec[];
  files: Map<string, OutputFile>;
  /** Every well-formed create call, bought or not (a scripted 429 or 500 included): when, and its callback URL. */
  createCalls: { at: string; webhook: string | null }[];
}

export function isTerminal(status: SimPredictionStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'canceled' || status === 'aborted';
}

/** Lower-case alphanumeric, like Replicate's prediction IDs. */
export function randomId(length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let id = '';
  for (const byte of randomBytes(length)) id += alphabet[byte % alphabet.length];
  return id;
}
