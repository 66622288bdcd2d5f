import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '@staging/db/client';
import { isLocale, type Locale } from '@staging/domain/locale';

/** The user a session belongs to, as request handlers see it. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: 'AGENT' | 'ADMIN';
}

export interface ResolvedSession {
  sessionId: string;
  user: SessionUser;
  /** The UI language saved in the user's account; null when they never picked one. */
  locale: Locale | null;
}

export interface CreatedSession {
  /** The bearer secret for the cookie; never stored, only its sha256. */
  token: string;
  expiresAt: Date;
}

/** Sessions older than this since their last use get `lastSeenAt` refreshed (one write a minute). */
const LAST_SEEN_RESOLUTION_MS = 60_000;

/**
 * sha256 is enough here (no salt, no stretching): the token is 32 random bytes, so a stolen
 * database row cannot be reversed by guessing, and the lookup must be an exact index hit.
 */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export async function createSession(
  db: Db,
  userId: string,
  options: { now: Date; ttlMs: number },
): Promise<CreatedSession> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(options.now.getTime() + options.ttlMs);
  await db.session.create({
    data: {
      tokenHash: hashSessionToken(token),
      userId,
      expiresAt,
      createdAt: options.now,
      lastSeenAt: options.now,
    },
    select: { id: true },
  });
  return { token, expiresAt };
}

/** The session of `token`, or null when it is unknown or expired at `now`. */
export async function resolveSession(db: Db, token: string, now: Date): Promise<ResolvedSession | null> {
  if (token.length === 0 || token.length > 256) return null;
  const session = await db.session.findUnique({
    where: { tokenHash: hashSessionToken(token) },
    select: {
      id: true,
      expiresAt: true,
      lastSeenAt: true,
      user: { select: { id: true, email: true, name: true, role: true, locale: true } },
    },
  });
  if (session === null || session.expiresAt.getTime() <= now.getTime()) return null;
  if (now.getTime() - session.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
    await db.session.updateMany({ where: { id: session.id }, data: { lastSeenAt: now } });
  }
  const { locale, ...user } = session.user;
  return { sessionId: session.id, user, locale: isLocale(locale) ? locale : null };
}

/** Deletes the session of `token`; unknown tokens are ignored so logout is idempotent. */
export async function revokeSession(db: Db, token: string): Promise<void> {
  await db.session.deleteMany({ where: { tokenHash: hashSessionToken(token) } });
}
