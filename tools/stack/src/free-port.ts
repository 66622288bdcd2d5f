import { createServer } from 'node:net';
import { listeningPort } from '@staging/platform/http-client-errors';

/**
 * A loopback port free a moment ago: the OS hands one out for port 0 and it is released at once.
 * Only for a process that must be told its port before it starts (a child's URL in another's
 * environment); anything that can listen on port 0 itself and report its port should.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = listeningPort(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

