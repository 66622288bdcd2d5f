// Baseline for webhook-bench.ts: the smallest Express 5 app that accepts the same POST with the
// same raw-body parser and answers 204, so the ratio isolates what the real receiver adds
// (verification, receipt statement, wake-up, logging). Run as its own process on PORT.
import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';

type Handler = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
interface ExpressApp {
  post(path: string, ...handlers: Handler[]): void;
  listen(port: number, host: string, callback: () => void): void;
}
interface ExpressModule {
  (): ExpressApp;
  raw(options: { type: () => boolean; limit: number }): Handler;
}

// The same express build apps/api runs, loaded from there: tools/bench is not a workspace package
// and has no dependencies of its own.
const express = createRequire(new URL('../../apps/api/package.json', import.meta.url))('express') as ExpressModule;

const port = Number(process.env.PORT);
const app = express();
app.post('/api/webhooks/provider/staging/:providerAttemptId', express.raw({ type: () => true, limit: 256 * 1024 }), (_req, res) => {
  res.statusCode = 204;
  res.end();
});
app.listen(port, '127.0.0.1', () => process.stdout.write(`bare express listening on ${port}\n`));
