import { afterAll, describe, expect, test } from '@jest/globals';
import { createDb } from '@staging/db/client';
import { createUser } from '@staging/db/testing/factories';
import { AppError } from '@staging/domain/errors';
import { DEFAULT_SESSION_TTL_MS, INVALID_CREDENTIALS, login } from './login';
import { resolveSession } from './sessions';
import { saveUserLocale } from './user-locale';

const db = createDb(process.env.DATABASE_URL as string);
afterAll(() => db.$disconnect());

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('login', () => {
  test('right password: a session that resolves to the user', async () => {
    const user = await createUser(db, { password: 'correct horse battery staple' });
    const now = new Date('2030-01-01T00:00:00Z');
    const result = await login(db, { email: ` ${user.email} `, password: 'correct horse battery staple' }, now);
    expect(result.user).toEqual({ id: user.id, email: user.email, name: user.name, role: 'AGENT' });
    expect(result.session.expiresAt).toEqual(new Date(now.getTime() + DEFAULT_SESSION_TTL_MS));
    const resolved = await resolveSession(db, result.session.token, now);
    expect(resolved?.user).toEqual(result.user);
    expect(resolved?.locale).toBeNull();
    expect(result.locale).toBeNull();
  });

  test('reports the UI language the user picked earlier, at sign-in and with every session lookup', async () => {
    const user = await createUser(db, { password: 'secret-1' });
    await saveUserLocale(db, user.id, 'es');
    const now = new Date();
    const result = await login(db, { email: user.email, password: 'secret-1' }, now);
    expect(result.locale).toBe('es');
    expect((await resolveSession(db, result.session.token, now))?.locale).toBe('es');
  });

  test('wrong password, unknown email and oversized password all read the same', async () => {
    const user = await createUser(db, { password: 'secret-1' });
    const now = new Date();
    const attempts = [
      { email: user.email, password: 'secret-2' },
      { email: `nobody-${user.id}@example.test`, password: 'secret-1' },
      { email: user.email, password: 'x'.repeat(2000) },
      { email: '', password: 'secret-1' },
      { email: 'nul\u0000@example.test', password: 'secret-1' },
    ];
    for (const credentials of attempts) {
      const error = await failure(login(db, credentials, now));
      expect([error.code, error.message]).toEqual(['UNAUTHORIZED', INVALID_CREDENTIALS]);
    }
    expect(await db.session.count({ where: { userId: user.id } })).toBe(0);
  });

  test('an unknown email costs a password verification too (no timing shortcut)', async () => {
    const user = await createUser(db, { password: 'secret-1' });
    await failure(login(db, { email: 'warm-up@example.test', password: 'x' }, new Date()));
    // CPU time of this process (scrypt runs on its thread pool), not wall time: it measures the
    // work done, so other processes on a busy machine do not change it.
    const work = async (email: string) => {
      const before = process.cpuUsage();
      await failure(login(db, { email, password: 'wrong' }, new Date()));
      const spent = process.cpuUsage(before);
      return spent.user + spent.system;
    };
    const known = await work(user.email);
    const unknown = await work(`unknown-${user.id}@example.test`);
    // scrypt dominates both; a skipped verification would be an order of magnitude less work.
    expect(unknown).toBeGreaterThan(known / 4);
  });
});
