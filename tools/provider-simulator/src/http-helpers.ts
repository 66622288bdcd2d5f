import type { IncomingMessage, ServerResponse } from 'node:http';

export class RequestBodyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Reads a JSON body (at most maxBytes); an empty body reads as undefined. */
export async function readJsonBody(request: IncomingMessage, maxBytes = 1024 * 1024): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) throw new RequestBodyError(413, 'Request body too large');
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new RequestBodyError(400, 'Request body is not valid JSON');
  }
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': status >= 400 ? 'application/problem+json' : 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/** Replicate's error documents carry `detail` (and `title`/`status`). */
export function sendProblem(response: ServerResponse, status: number, title: string, detail: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): void {
  sendJson(response, status, { title, detail, status, ...extra }, headers);
}
