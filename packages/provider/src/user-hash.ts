import { createHmac } from 'node:crypto';

const SECRET_PATTERN = /^[0-9a-fA-F]{64}$/;

/**
 * Pseudonymous user_id sent to the provider (docs/system.md 5.3): HMAC-SHA256 of the internal user ID,
 * hex encoded. The key is the 64-hex-character AI_STAGING_USER_HASH_SECRET decoded to its 32
 * bytes (not the hex text), so the full 256 bits of the secret are used as key material. The
 * secret is checked here too because Buffer.from(hex) silently drops invalid characters, which
 * would quietly weaken the key.
 */
export function hashUserId(userId: string, secretHex: string): string {
  if (!SECRET_PATTERN.test(secretHex)) {
    throw new Error('AI_STAGING_USER_HASH_SECRET must be exactly 64 hexadecimal characters');
  }
  return createHmac('sha256', Buffer.from(secretHex, 'hex')).update(userId, 'utf8').digest('hex');
}
