import { describe, expect, it } from '@jest/globals';
import { withTimeout } from './timeout';

describe('withTimeout', () => {
  it('settles as the operation does when it settles in time', async () => {
    await expect(withTimeout(Promise.resolve(42), 1_000, 'too slow')).resolves.toBe(42);
    const refused = new Error('refused');
    await expect(withTimeout(Promise.reject(refused), 1_000, 'too slow')).rejects.toBe(refused);
  });

  it('rejects with the given message once the operation outlives the timeout', async () => {
    await expect(withTimeout(new Promise<never>(() => undefined), 5, 'wake timed out after 5 ms')).rejects.toThrow('wake timed out after 5 ms');
  });
});
