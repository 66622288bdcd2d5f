import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One request the Sentry SDK sent: its path and (decompressed) envelope, raw and parsed. */
export interface CapturedEnvelope {
  url: string;
  raw: string;
  header: Record<string, unknown>;
  items: { header: Record<string, unknown>; payload: Record<string, unknown> }[];
}

export interface SentryCaptureServer {
  /** A DSN for project 1 that sends to this server. */
  dsn: string;
  envelopes: CapturedEnvelope[];
  /** The payloads of every `event` item received so far. */
  events(): Record<string, unknown>[];
  close(): Promise<void>;
}

function parseEnvelope(url: string, raw: string): CapturedEnvelope {
  // Envelope: a header line, then (item header, item payload) line pairs.
  const lines = raw.split('\n').filter((line) => line.trim() !== '');
  const items: CapturedEnvelope['items'] = [];
  for (let i = 1; i + 1 < lines.length; i += 2) {
    items.push({ header: JSON.parse(lines[i]!) as Record<string, unknown>, payload: JSON.parse(lines[i + 1]!) as Record<string, unknown> });
  }
  return { url, raw, header: JSON.parse(lines[0] ?? '{}') as Record<string, unknown>, items };
}

/** A loopback stand-in for Sentry's ingest endpoint that records every envelope and answers 200. */
export async function startSentryCaptureServer(): Promise<SentryCaptureServer> {
  const envelopes: CapturedEnvelope[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const raw = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body).toString('utf8');
      envelopes.push(parseEnvelope(req.url ?? '', raw));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    dsn: `http://publickey@127.0.0.1:${(server.address() as AddressInfo).port}/1`,
    envelopes,
    events: () =>
      envelopes.flatMap((e) => e.items.filter((item) => item.header['type'] === 'event').map((item) => item.payload)),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
