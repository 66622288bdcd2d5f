// A message that matches none of its queue's declared versions is refused by the worker, on every
// queue it consumes: logged, alerted, failed for good, and never handed to a processor.
import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import { MESSAGE_REFUSED } from '@staging/services/queue-contract';
import { createSearchQueue } from '@staging/services/search/search-queue';
import type { SearchQueue } from '@staging/services/search/search-queue';
import { useAiQueueTestStack, waitUntil } from './support/test-stack';

const ctx = useAiQueueTestStack();
let searchQueue: SearchQueue;

beforeAll(() => {
  searchQueue = createSearchQueue(ctx.stack.redis, ctx.stack.suffix);
});

type AnyQueue = Pick<Queue, 'add' | 'getJob' | 'getJobState'>;

interface ForeignMessage {
  what: string;
  queue: () => AnyQueue;
  queueKey: 'staging' | 'ai' | 'search';
  name: string;
  data: (id: string) => Record<string, unknown>;
}

const FOREIGN: ForeignMessage[] = [
  { what: 'a staging message of a version not declared', queue: () => ctx.stack.queue as AnyQueue, queueKey: 'staging', name: 'room-staging', data: (id) => ({ aiJobId: id, v: 2 }) },
  { what: 'a staging message with a field not declared', queue: () => ctx.stack.queue as AnyQueue, queueKey: 'staging', name: 'room-staging', data: (id) => ({ aiJobId: id, v: 1, priority: 'high' }) },
  { what: 'a staging message naming another job', queue: () => ctx.stack.queue as AnyQueue, queueKey: 'staging', name: 'room-staging', data: () => ({ aiJobId: randomUUID(), v: 1 }) },
  { what: 'a legacy message on the staging queue', queue: () => ctx.stack.queue as AnyQueue, queueKey: 'staging', name: 'stage-room', data: (id) => ({ aiJobId: id, v: 1 }) },
  { what: 'a description message of a version not declared', queue: () => ctx.aiQueue, queueKey: 'ai', name: 'description', data: (id) => ({ aiJobId: id, v: 2 }) },
  { what: 'a legacy stage-room message without its agent', queue: () => ctx.aiQueue, queueKey: 'ai', name: 'stage-room', data: () => ({ imageId: randomUUID(), style: 'MODERN', submittedAt: new Date().toISOString() }) },
  { what: 'a message kind the ai queue does not carry', queue: () => ctx.aiQueue, queueKey: 'ai', name: 'summarize', data: (id) => ({ aiJobId: id, v: 1 }) },
  { what: 'a search rebuild naming no property', queue: () => searchQueue as AnyQueue, queueKey: 'search', name: 'rebuild-property-document', data: () => ({ propertyId: '../x', v: 1 }) },
];

describe('queue messages the worker does not know', () => {
  it('are refused with a log line and an alert, fail for good and are not processed', async () => {
    const worker = await ctx.stack.startWorker();
    try {
      const sent = await Promise.all(
        FOREIGN.map(async (message) => {
          const id = randomUUID();
          await message.queue().add(message.name, message.data(id), { jobId: id, attempts: 5 });
          return { message, id };
        }),
      );
      for (const { message, id } of sent) {
        await waitUntil(async () => (await message.queue().getJobState(id)) === 'failed', { what: `${message.what} failed` });
        const job = await message.queue().getJob(id);
        expect({ what: message.what, reason: job?.failedReason, attempts: job?.attemptsMade }).toEqual({
          what: message.what,
          reason: expect.stringContaining(MESSAGE_REFUSED),
          attempts: 1,
        });
      }
      const refusals = worker.log.events('queue.message_refused');
      const alerts = worker.log.events('alert').filter((line) => line['errorCode'] === MESSAGE_REFUSED);
      for (const { message, id } of sent) {
        expect(refusals.filter((line) => line['queueJobId'] === id)).toEqual([
          expect.objectContaining({ queue: message.queueKey, jobName: message.name, problems: expect.any(Array) }),
        ]);
        // Nothing downstream of the refusal ran: beyond BullMQ's failure report, no line names the job.
        const processed = worker.log.lines().filter((line) => line['jobId'] === id && line['msg'] !== 'staging queue job failed');
        expect(processed).toEqual([]);
      }
      expect(alerts.map((line) => line['queue']).sort()).toEqual(sent.map(({ message }) => message.queueKey).sort());
    } finally {
      await worker.stop();
      // Here rather than in an afterAll: the stack's own afterAll closes the connection first.
      await searchQueue.obliterate({ force: true });
      await searchQueue.close();
    }
  }, 300_000);
});
