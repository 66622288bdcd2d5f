import pg from 'pg';
import { sqlPoolOf } from './client';
import type { Db } from './client';

export interface NotificationListenerOptions {
  channel: string;
  onNotification: (payload: string) => void;
  /**
   * After each LISTEN that took effect. `resumed` is false the first time and true after a lost
   * connection came back: whatever was sent in between never arrived.
   */
  onListening: (resumed: boolean) => void;
  /** The connection failed or was lost; the next try is `retryInMs` away. */
  onConnectionLost: (error: unknown, retryInMs: number) => void;
  /**
   * How often the connection is asked `SELECT 1`. A backend that ends says so (a restart, a
   * terminated session), but a peer cut off by the network says nothing, and a listening
   * connection sends nothing on its own that would notice.
   */
  checkIntervalMs?: number;
  /** First wait before reconnecting; doubled on every failure in a row up to `maxRetryMs`. */
  minRetryMs?: number;
  maxRetryMs?: number;
}

export interface NotificationListener {
  close(): Promise<void>;
}

const DEFAULTS = { checkIntervalMs: 30_000, minRetryMs: 500, maxRetryMs: 30_000 } as const;

/**
 * LISTENs on `options.channel` over one connection of its own to the database under `db` (a
 * listening session cannot go back to a pool), and keeps listening: a lost connection is replaced
 * with a growing pause between tries, for as long as the listener is open. One per process and
 * channel; its callbacks fan out to whoever needs the notifications.
 */
export function listenForNotifications(db: Db, options: NotificationListenerOptions): NotificationListener {
  const { connectionString } = sqlPoolOf(db).options;
  const checkIntervalMs = options.checkIntervalMs ?? DEFAULTS.checkIntervalMs;
  const minRetryMs = options.minRetryMs ?? DEFAULTS.minRetryMs;
  const maxRetryMs = options.maxRetryMs ?? DEFAULTS.maxRetryMs;
  let current: pg.Client | undefined;
  let closed = false;
  let hasListened = false;
  let failures = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  let checkTimer: NodeJS.Timeout | undefined;

  const lose = (client: pg.Client, error: unknown): void => {
    if (client !== current || closed) return;
    current = undefined;
    clearInterval(checkTimer);
    client.removeAllListeners('notification');
    client.end().catch(() => undefined);
    const retryInMs = Math.min(maxRetryMs, minRetryMs * 2 ** failures);
    failures += 1;
    options.onConnectionLost(error, retryInMs);
    retryTimer = setTimeout(() => void connect(), retryInMs);
  };

  const connect = async (): Promise<void> => {
    // application_name lets an operator (and the tests) find the listening session in pg_stat_activity.
    const client = new pg.Client({ connectionString, application_name: `listen:${options.channel}`, query_timeout: 10_000 });
    current = client;
    // After 'error' a client is done; 'end' also comes when the server closes the socket quietly.
    client.on('error', (error) => lose(client, error));
    client.on('end', () => lose(client, new Error('listening connection ended')));
    client.on('notification', (message) => {
      if (message.channel === options.channel && message.payload !== undefined) options.onNotification(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(options.channel)}`);
    } catch (error) {
      lose(client, error);
      return;
    }
    if (client !== current) return;
    failures = 0;
    checkTimer = setInterval(() => {
      client.query('SELECT 1').catch((error: unknown) => lose(client, error));
    }, checkIntervalMs);
    checkTimer.unref();
    options.onListening(hasListened);
    hasListened = true;
  };

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      clearInterval(checkTimer);
      const client = current;
      current = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}
