import { TRPCError } from '@trpc/server';
import { z } from 'zod';

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/**
 * The output schema of a subscription whose events match `event`. tRPC hands a subscription's
 * output parser the stream itself, not its events, so this one accepts any async iterable and
 * checks each event as it is read; an event that does not match ends the stream with the error
 * tRPC gives any answer that fails its output schema (INTERNAL_SERVER_ERROR).
 */
export function zEventStream<TEvent extends z.ZodType>(event: TEvent) {
  return z
    .custom<AsyncIterable<z.input<TEvent>>>(isAsyncIterable)
    .transform(async function* (stream): AsyncGenerator<z.output<TEvent>, void> {
      for await (const value of stream) {
        const parsed = event.safeParse(value);
        if (!parsed.success)
          throw new TRPCError({
            code: 'INTERNAL_SERVER_ERROR',
            message: 'Output validation failed',
            cause: parsed.error,
          });
        yield parsed.data;
      }
    });
}
