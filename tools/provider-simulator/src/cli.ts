/**
 * Runs the provider simulator for the local stack: `tsx src/cli.ts` with
 * SIM_TOKEN (the worker's PROVIDER_API_TOKEN) and SIM_WEBHOOK_SECRET (the api's
 * PROVIDER_WEBHOOK_SIGNING_SECRET) set; SIM_PORT defaults to 4200. Strict unless
 * SIM_MODE=lenient. The other SIM_* variables are listed in README.md. A tool, not a service, so
 * it reads its own environment instead of going through @staging/config.
 */
import { startProviderSimulator } from './simulator';
import type { SimulatorMode } from './prediction-document';

function optionalInt(name: string, fallback: number | undefined): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`);
  return value;
}

function optionalIntList(name: string): number[] | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const values = raw.split(',').map((part) => Number(part.trim()));
  if (values.some((value) => !Number.isInteger(value) || value < 0)) throw new Error(`${name} must be a comma-separated list of non-negative integers`);
  return values;
}

function mode(): SimulatorMode {
  const raw = process.env['SIM_MODE'] || 'strict';
  if (raw !== 'strict' && raw !== 'lenient') throw new Error('SIM_MODE must be strict or lenient');
  return raw;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

async function main(): Promise<void> {
  const simulator = await startProviderSimulator({
    mode: mode(),
    port: optionalInt('SIM_PORT', 4200),
    token: required('SIM_TOKEN'),
    webhookSigningSecret: required('SIM_WEBHOOK_SECRET'),
    host: '127.0.0.1',
    completionDelayMs: optionalInt('SIM_COMPLETION_DELAY_MS', undefined),
    slowCompletionDelayMs: optionalInt('SIM_SLOW_COMPLETION_DELAY_MS', undefined),
    listPageSize: optionalInt('SIM_LIST_PAGE_SIZE', undefined),
    webhookRetryDelaysMs: optionalIntList('SIM_WEBHOOK_RETRY_DELAYS_MS'),
    dataRetentionMs: optionalInt('SIM_DATA_RETENTION_MS', undefined),
    createLimitPerMinute: optionalInt('SIM_CREATE_LIMIT_PER_MINUTE', undefined),
    readLimitPerMinute: optionalInt('SIM_READ_LIMIT_PER_MINUTE', undefined),
    outputFetchBaseUrl: process.env['SIM_OUTPUT_BASE_URL'] || undefined,
    models: process.env['SIM_MODELS'] ? process.env['SIM_MODELS'].split(',').map((m) => m.trim()) : undefined,
  });
  process.stdout.write(`${JSON.stringify({ event: 'provider_simulator_started', url: simulator.url, origin: simulator.origin, mode: simulator.mode })}\n`);
  const shutdown = () => {
    void simulator.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`provider-simulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
