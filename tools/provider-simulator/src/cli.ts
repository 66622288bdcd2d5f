/**
 * Runs the provider simulator for the local stack: `tsx src/cli.ts` with
 * SIM_TOKEN (the worker's PROVIDER_API_TOKEN) and SIM_WEBHOOK_SECRET (the api's
 * PROVIDER_WEBHOOK_SIGNING_SECRET) set; SIM_PORT defaults to 4200. A tool, not a service, so it
 * reads its own environment instead of going through @staging/config.
 */
import { startProviderSimulator } from './simulator';

function optionalInt(name: string, fallback: number | undefined): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`);
  return value;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

async function main(): Promise<void> {
  const simulator = await startProviderSimulator({
    port: optionalInt('SIM_PORT', 4200),
    token: required('SIM_TOKEN'),
    webhookSigningSecret: required('SIM_WEBHOOK_SECRET'),
    host: '127.0.0.1',
    completionDelayMs: optionalInt('SIM_COMPLETION_DELAY_MS', undefined),
    outputFetchBaseUrl: process.env['SIM_OUTPUT_BASE_URL'] || undefined,
    models: process.env['SIM_MODELS'] ? process.env['SIM_MODELS'].split(',').map((m) => m.trim()) : undefined,
  });
  process.stdout.write(`${JSON.stringify({ event: 'provider_simulator_started', url: simulator.url, origin: simulator.origin })}\n`);
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
