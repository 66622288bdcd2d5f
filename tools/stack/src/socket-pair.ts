import type { Socket } from 'node:net';

/**
 * Joins a proxy's client socket to its upstream both ways, optionally tapping each direction, and
 * tears both down (and forgets them in `open`) as soon as either side closes or fails. The test
 * and benchmark proxies (a Redis outage switch, a Postgres statement counter) share it.
 */
export function joinSockets(
  client: Socket,
  upstream: Socket,
  open: Set<Socket>,
  taps: { fromClient?: (chunk: Buffer) => void; fromUpstream?: (chunk: Buffer) => void } = {},
): void {
  open.add(client).add(upstream);
  const drop = () => {
    client.destroy();
    upstream.destroy();
    open.delete(client);
    open.delete(upstream);
  };
  client.on('error', drop).on('close', drop);
  upstream.on('error', drop).on('close', drop);
  client.on('data', (chunk: Buffer) => {
    taps.fromClient?.(chunk);
    upstream.write(chunk);
  });
  upstream.on('data', (chunk: Buffer) => {
    taps.fromUpstream?.(chunk);
    client.write(chunk);
  });
}
