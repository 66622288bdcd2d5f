import { hashPassword, verifyPassword } from '@staging/db/passwords';
import type { Db } from '@staging/db/client';
import { AppError, ErrorCode } from '@staging/domain/errors';
import { isLocale, type Locale } from '@staging/domain/locale';
import { createSession } from './sessions';
import type { CreatedSession, SessionUser } from './sessions';

export const INVALID_CREDENTIALS = 'Invalid email or password';

/** Session lifetime unless the caller passes another (fixed, not sliding). */
export const DEFAULT_SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

/** Longest accepted password: scrypt cost grows with input length, so bound the work per try. */
const MAX_PASSWORD_LENGTH = 1024;

// Verified against when the email is unknown, so that answer costs the same scrypt work as a wrong
// password and response times do not reveal which emails have accounts. Created once per process.
let decoyHash: Promise<string> | undefined;
function getDecoyHash(): Promise<string> {
  decoyHash ??= hashPassword('decoy password that matches no account');
  return decoyHash;
}

export interface LoginResult {
  user: SessionUser;
  session: CreatedSession;
  /** The UI language the user picked earlier, restored on this sign-in; null: none picked. */
  locale: Locale | null;
}

/**
 * Checks an email/password pair and opens a session. Unknown email, wrong password and an
 * oversized password give the same UNAUTHORIZED error after the same scrypt work. The email is
 * trimmed and then matched exactly as stored: normalization belongs to registration, and a
 * case-insensitive match could pick one of two accounts that differ only in case.
 */
export async function login(
  db: Db,
  credentials: { email: string; password: string },
  now: Date,
  options: { ttlMs?: number } = {},
): Promise<LoginResult> {
  const email = credentials.email.trim();
  const user =
    email.length === 0 || email.length > 320 || email.includes('\u0000')
      ? null
      : await db.user.findUnique({
          where: { email },
          select: { id: true, email: true, name: true, role: true, passwordHash: true, locale: true },
        });
  const passwordAcceptable = credentials.password.length <= MAX_PASSWORD_LENGTH;
  const matches = await verifyPassword(
    passwordAcceptable ? credentials.password : '',
    user?.passwordHash ?? (await getDecoyHash()),
  );
  if (user === null || !passwordAcceptable || !matches) {
    throw new AppError(ErrorCode.UNAUTHORIZED, INVALID_CREDENTIALS);
  }
  const session = await createSession(db, user.id, { now, ttlMs: options.ttlMs ?? DEFAULT_SESSION_TTL_MS });
  return {
    user: { id: user.id, email: user.email, name: user.name, role: user.role },
    session,
    locale: isLocale(user.locale) ? user.locale : null,
  };
}
