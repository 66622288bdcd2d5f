import { describe, expect, it } from '@jest/globals';
import { checkReadiness } from './readiness';

describe('checkReadiness', () => {
  it('is ready when every dependency answers', async () => {
    await expect(checkReadiness({ database: async () => 1, redis: async () => 'PONG' })).resolves.toEqual({
      status: 'ready',
      checks: { database: 'ok', redis: 'ok' },
    });
  });

  it('names the dependency that refused, and keeps its error out of the body', async () => {
    const body = await checkReadiness({
      database: async () => {
        throw new Error('password authentication failed for user "app"');
      },
      redis: async () => 'PONG',
    });
    expect(body).toEqual({ status: 'not_ready', checks: { database: 'failed', redis: 'ok' } });
  });

  it('counts a dependency that never answers as failed once the timeout passes, without waiting for it', async () => {
    const never = () => new Promise<never>(() => undefined);
    await expect(checkReadiness({ redis: never, consumer: async () => undefined }, 5)).resolves.toEqual({
      status: 'not_ready',
      checks: { redis: 'failed', consumer: 'ok' },
    });
  });
});
