// A real pino logger (same redaction and format as production) whose output a test reads back.
import { Writable } from 'node:stream';
import { createLogger } from '../logger';
import type { Logger } from '../logger';

export interface MemoryLogger {
  logger: Logger;
  /** Every line written so far, parsed. */
  lines(): Record<string, unknown>[];
  /** Lines whose `event` field equals `event`. */
  events(event: string): Record<string, unknown>[];
  /** Everything written, raw, for "this secret never appears" assertions. */
  text(): string;
}

/** A debug-level logger of `service` writing to memory. */
export function memoryLogger(service: string): MemoryLogger {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString('utf8'));
      callback();
    },
  });
  const logger = createLogger({ service, level: 'debug', destination });
  const text = () => chunks.join('');
  const lines = () =>
    text()
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, lines, events: (event) => lines().filter((line) => line['event'] === event), text };
}
