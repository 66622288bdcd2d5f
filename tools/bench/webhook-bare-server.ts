// Baselines for webhook-bench.ts: the smallest Express 5 app that accepts the same POST with the
// same raw-body parser and answers 204, run as its own process on PORT, in one of two modes:
//
// - BARE_MODE=noop: answers at once, so the ratio shows everything the real receiver adds;
// - BARE_MODE=insert: first commits one INSERT of the receipt row (the durable work the receiver
//   cannot skip) through a pg pool as large as the api's, so the ratio shows what the receiver
//   adds beyond its floor (verification, attempt lookup, wake-up, logging).
import express from 'express';
import pg from 'pg';

/** The pool size createDb gives the api by default. */
const API_POOL_SIZE = 10;

const port = Number(process.env.PORT);
const mode = process.env.BARE_MODE ?? 'noop';
const pool = mode === 'insert' ? new pg.Pool({ connectionString: process.env.DATABASE_URL ?? '', max: API_POOL_SIZE }) : undefined;

const app = express();
app.post('/api/webhooks/provider/staging/:providerAttemptId', express.raw({ type: () => true, limit: 256 * 1024 }), (req, res, next) => {
  const done = () => {
    res.statusCode = 204;
    res.end();
  };
  if (pool === undefined) return done();
  pool
    .query(
      `INSERT INTO "ai_provider_webhook_receipts"
         ("webhookId", "providerAttemptId", "providerPredictionId", "providerStatus", "webhookTimestamp")
       VALUES ($1, $2, 'pred_bare', 'processing', now())`,
      [req.headers['webhook-id'], req.params['providerAttemptId']],
    )
    .then(done, next);
});
app.listen(port, '127.0.0.1', () => process.stdout.write(`bare express (${mode}) listening on ${port}\n`));
