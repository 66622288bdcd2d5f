// Every answer a client decodes has a declared shape: each procedure of the router names an output
// schema, so a procedure added without one fails here, and a live stream checks each event it
// sends, not just the stream object tRPC hands the output parser.
import { expect, test } from '@jest/globals';
import { initTRPC } from '@trpc/server';
import type { z } from 'zod';
import { appRouter } from './root';

const byPath = appRouter._def.procedures as unknown as Record<string, { _def: { output?: z.ZodType } }>;
const procedures = Object.entries(byPath);

test('every procedure declares the shape of its answer', () => {
  expect(procedures.map(([path]) => path)).toContain('ai.stagingEvents');
  expect(procedures.filter(([, procedure]) => procedure._def.output === undefined).map(([path]) => path)).toEqual([]);
});

test('a live stream whose event drifts from ai.stagingEvents’ schema ends with INTERNAL_SERVER_ERROR, and its source is closed', async () => {
  const schema = byPath['ai.stagingEvents']?._def.output as z.ZodType<AsyncIterable<unknown>>;
  const probe = initTRPC.create();
  let sourceClosed = false;
  const router = probe.router({
    events: probe.procedure.output(schema).subscription(async function* () {
      try {
        yield { kind: 'resync' };
        yield { kind: 'job', propertyId: 'p1', jobId: 'j1', status: 'PENDING', objectKey: 'properties/p1/x.jpg' };
        yield { kind: 'resync' };
      } finally {
        sourceClosed = true;
      }
    }),
  });
  const stream = await probe.createCallerFactory(router)({}).events();
  const received: unknown[] = [];
  const reading = (async () => {
    for await (const event of stream) received.push(event);
  })();

  await expect(reading).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR', message: 'Output validation failed' });
  expect(received).toEqual([{ kind: 'resync' }]);
  expect(sourceClosed).toBe(true);
});
