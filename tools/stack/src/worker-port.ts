// A worker started with PORT=0 binds whatever port the OS gives its health server and announces it
// in one log line. Stacks read the port from that line instead of choosing one beforehand: a port
// found free and handed over later can be taken meanwhile (an outgoing connection's local port),
// and the worker then dies at boot with EADDRINUSE.
import { numberField, parsedFields } from './json-fields';

/** The port of a worker's "worker health server listening" line; undefined for any other line. */
export function workerHealthPortOf(line: string): number | undefined {
  return line.includes('worker health server listening') ? numberField(parsedFields(line), 'port') : undefined;
}
