import { createConnection, createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { joinSockets } from '@staging/stack/socket-pair';

/**
 * A TCP proxy in front of Redis that a test can cut and restore, to simulate a Redis outage for
 * one worker without touching the shared Redis server (never FLUSHALL, never CLIENT PAUSE on a
 * server other runs use).
 */
export interface TcpProxy {
  url: string;
  /** Drops every connection and refuses new ones until restore(). */
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let port = 0;
  let server: Server | null = null;

  const listen = async (): Promise<void> => {
    server = createServer((client) => {
      joinSockets(client, createConnection(target), sockets);
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  };
  const stop = async (): Promise<void> => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    if (server !== null) await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = null;
  };
  await listen();
  return {
    url: `redis://127.0.0.1:${port}`,
    cut: stop,
    restore: listen,
    close: stop,
  };
}
