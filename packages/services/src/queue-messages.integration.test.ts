import { jest } from '@jest/globals';
import { createRedis } from '@staging/platform/queues';
import { createAiQueue } from './description/ai-queue';
import { createSearchQueue } from './search/search-queue';
import { createStagingQueue } from './staging/staging-queue';

it('keeps the errors queues relay from their connection out of console.error; the connection logs them once', async () => {
  const printed = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const logged: Error[] = [];
  // Nothing listens on port 1: every connection attempt fails.
  const redis = createRedis('redis://127.0.0.1:1', { role: 'producer', onError: (error) => logged.push(error) });
  // The producers' queues, all on that one connection as in the api and the web.
  createStagingQueue(redis, '-relay-test');
  createSearchQueue(redis, '-relay-test');
  createAiQueue(redis, '-relay-test');
  try {
    // Two failed attempts: the queues listen on the connection well before the second.
    await new Promise<void>((resolve) => redis.on('error', () => logged.length >= 2 && resolve()));
    expect(logged.map((error) => (error as { code?: string }).code)).toEqual(['ECONNREFUSED', 'ECONNREFUSED']);
    expect(printed).not.toHaveBeenCalled();
  } finally {
    printed.mockRestore();
    // Closing a queue waits for a connection that never came; dropping the connection ends them.
    redis.disconnect();
  }
});
