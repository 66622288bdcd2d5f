import { createHash } from 'node:crypto';
import { afterAll, describe, expect, test } from '@jest/globals';
import { createDb } from '@staging/db/client';
import { createUser } from '@staging/db/testing/factories';
import { createSession, resolveSession, revokeSession } from './sessions';

const db = createDb(process.env.DATABASE_URL as string);
afterAll(() => db.$disconnect());

const HOUR = 3_600_000;

describe('sessions', () => {
  test('only the sha256 of the random token is stored', async () => {
    const user = await createUser(db);
    const now = new Date('2030-01-01T00:00:00Z');
    const { token, expiresAt } = await createSession(db, user.id, { now, ttlMs: HOUR });
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(expiresAt).toEqual(new Date(now.getTime() + HOUR));
    const rows = await db.session.findMany({ where: { userId: user.id }, select: { tokenHash: true } });
    expect(rows).toEqual([{ tokenHash: createHash('sha256').update(token).digest('hex') }]);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  test('resolves to the user until the expiry instant, then null', async () => {
    const user = await createUser(db, { role: 'ADMIN' });
    const now = new Date('2030-01-01T00:00:00Z');
    const { token } = await createSession(db, user.id, { now, ttlMs: HOUR });
    const resolved = await resolveSession(db, token, new Date(now.getTime() + HOUR - 1));
    expect(resolved?.user).toEqual({ id: user.id, email: user.email, name: user.name, role: 'ADMIN' });
    expect(await resolveSession(db, token, new Date(now.getTime() + HOUR))).toBeNull();
  });

  test('unknown, empty and oversized tokens resolve to null', async () => {
    const now = new Date();
    expect(await resolveSession(db, 'not-a-token', now)).toBeNull();
    expect(await resolveSession(db, '', now)).toBeNull();
    expect(await resolveSession(db, 'x'.repeat(10_000), now)).toBeNull();
  });

  test('lastSeenAt is refreshed at most once a minute', async () => {
    const user = await createUser(db);
    const start = new Date('2030-01-01T00:00:00Z');
    const { token } = await createSession(db, user.id, { now: start, ttlMs: HOUR });
    const lastSeen = async () => (await db.session.findFirstOrThrow({ where: { userId: user.id } })).lastSeenAt;
    await resolveSession(db, token, new Date(start.getTime() + 59_000));
    expect(await lastSeen()).toEqual(start);
    await resolveSession(db, token, new Date(start.getTime() + 61_000));
    expect(await lastSeen()).toEqual(new Date(start.getTime() + 61_000));
  });

  test('revoke ends the session and is idempotent', async () => {
    const user = await createUser(db);
    const now = new Date();
    const { token } = await createSession(db, user.id, { now, ttlMs: HOUR });
    await revokeSession(db, token);
    await revokeSession(db, token);
    expect(await resolveSession(db, token, now)).toBeNull();
  });
});
