// A TCP proxy in front of Postgres that counts, from the wire protocol, the statements and the
// transactions of the clients that connect through it. pg_stat_statements is not preloaded on
// this server, and pg_stat_database counts every client of a database (the api's webhook
// receipts included); the proxy charges one process only.
//
// A statement is a simple Query or an Execute, transaction control (BEGIN, COMMIT, …) not
// included. A transaction ends at every ReadyForQuery whose status is idle ('I') after a cycle
// that ran something: an autocommitted statement, a COMMIT or a ROLLBACK, as pg_stat_database's
// xact_commit + xact_rollback count them.
import net from 'node:net';
import { listeningPort } from '@staging/platform/http-client-errors';
import { joinSockets } from '@staging/stack/socket-pair';

export interface PgCounts {
  statements: number;
  transactions: number;
}

export interface PgCountProxy {
  /** `databaseUrl` with host and port replaced by the proxy's. */
  url: string;
  counts(): PgCounts;
  close(): Promise<void>;
}

const CONTROL = /^\s*(BEGIN|START\s+TRANSACTION|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE|DEALLOCATE)\b/i;

/** Splits a byte stream into typed messages (one type byte, then an int32 length that includes itself). */
function messageReader(onMessage: (type: number, body: Buffer) => void, hasStartup: boolean): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  let startup = hasStartup;
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
      // The startup message has no type byte.
      const header = startup ? 4 : 5;
      if (pending.length < header) return;
      const length = pending.readInt32BE(header - 4);
      const total = header - 4 + length;
      if (pending.length < total) return;
      if (startup) startup = false;
      else onMessage(pending.readUInt8(0), pending.subarray(header, total));
      pending = pending.subarray(total);
    }
  };
}

/** The text up to the first NUL from `offset`, and where the next field starts. */
function cString(body: Buffer, offset: number): [string, number] {
  const end = body.indexOf(0, offset);
  return [body.toString('utf8', offset, end), end + 1];
}

/** `onStatement` sees the text of every statement counted (BENCH_PG_LOG=1 prints them, to see where they come from). */
export async function startPgCountProxy(databaseUrl: string, onStatement?: (sql: string) => void): Promise<PgCountProxy> {
  const target = new URL(databaseUrl);
  const totals: PgCounts = { statements: 0, transactions: 0 };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    const texts = new Map<string, string>();
    const portals = new Map<string, string>();
    let ranInCycle = false;
    const fromClient = messageReader((type, body) => {
      const code = String.fromCharCode(type);
      if (code === 'P') {
        const [name, next] = cString(body, 0);
        texts.set(name, cString(body, next)[0]);
      } else if (code === 'B') {
        const [portal, next] = cString(body, 0);
        portals.set(portal, texts.get(cString(body, next)[0]) ?? '');
      } else if (code === 'E' || code === 'Q') {
        ranInCycle = true;
        const sql = code === 'E' ? (portals.get(cString(body, 0)[0]) ?? '') : cString(body, 0)[0];
        if (!CONTROL.test(sql)) {
          totals.statements += 1;
          onStatement?.(sql);
        }
      }
    }, true);
    const fromServer = messageReader((type, body) => {
      if (String.fromCharCode(type) !== 'Z') return;
      if (ranInCycle && body[0] === 'I'.charCodeAt(0)) totals.transactions += 1;
      ranInCycle = false;
    }, false);
    joinSockets(client, upstream, sockets, { fromClient, fromUpstream: fromServer });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(databaseUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(listeningPort(server));
  return {
    url: proxied.toString(),
    counts: () => ({ ...totals }),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
