// The simulator's HTTP server: which handler a request goes to (control API, output files,
// Replicate's API), how a handler's failure is answered, and binding and closing the server.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleApi, handleFile } from './api-routes';
import type { ApiContext } from './api-routes';
import { handleControl } from './control-routes';
import { RequestBodyError, sendProblem } from './http-helpers';
import { stampDate } from './provider-clock';

export function createSimulatorServer(api: ApiContext, reset: () => void): Server {
  const { state, lifecycle, conditions, address, clock } = api;

  async function route(request: Parameters<typeof handleApi>[1], response: Parameters<typeof handleApi>[2]): Promise<void> {
    const url = new URL(request.url ?? '/', address.origin);
    const path = url.pathname;
    if (path.startsWith('/__sim/')) return handleControl({ state, lifecycle, conditions, reset }, request, response, path);
    const file = /^\/files\/([A-Za-z0-9._-]+)$/.exec(path);
    if (file?.[1] && request.method === 'GET') return handleFile(state, response, file[1]);
    if (!path.startsWith('/v1/')) return sendProblem(response, 404, 'Not found', 'The requested resource could not be found.');
    return handleApi(api, request, response, url);
  }

  return createServer((request, response) => {
    stampDate(response, clock);
    route(request, response).catch((error: unknown) => {
      if (response.headersSent) return void response.destroy();
      if (error instanceof RequestBodyError) return sendProblem(response, error.status, 'Bad request', error.message);
      process.stderr.write(`provider-simulator: ${error instanceof Error ? error.stack : String(error)}\n`);
      sendProblem(response, 500, 'Internal Server Error', 'Simulator error');
    });
  });
}

/** Binds the server; a bind failure (port taken) rejects instead of being thrown as an event. */
export async function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server.address() as AddressInfo;
}

/** Resolves once the server is closed; open keep-alive connections are cut rather than awaited. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
