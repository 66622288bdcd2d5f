import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

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
  const port = boundPort(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The port a listening server is bound to; throws for one not listening on a TCP port. */
export function boundPort(server: { address(): AddressInfo | string | null }): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error(`the server is not listening on a TCP port (${String(address)})`);
  return address.port;
}
