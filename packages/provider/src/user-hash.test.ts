import { describe, expect, it } from '@jest/globals';
import { hashUserId } from './user-hash';

// Expected values computed independently with
// `printf %s "<id>" | openssl dgst -sha256 -mac HMAC -macopt hexkey:<secret>`.
const SECRET_A = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const SECRET_B = 'FFEEDDCCBBAA99887766554433221100ffeeddccbbaa99887766554433221100';

describe('hashUserId', () => {
  it('is HMAC-SHA256 keyed with the decoded 32-byte secret, hex encoded', () => {
    expect(hashUserId('user-123', SECRET_A)).toBe('4b3f88c3f41a4ae9c09d00787cdb4ef6860dc096f2d7a28fc32f76ac77caa2be');
  });

  it('hashes the user ID as UTF-8 and accepts upper-case hex secrets', () => {
    expect(hashUserId('üser-ß', SECRET_B)).toBe('cfb20ada32dca9d2990956d0b3626f67ccddf2f8c2b0b560a9fba8a8ebc4f3fe');
  });

  it('gives different hashes for different users and different secrets', () => {
    expect(hashUserId('user-123', SECRET_A)).not.toBe(hashUserId('user-124', SECRET_A));
    expect(hashUserId('user-123', SECRET_A)).not.toBe(hashUserId('user-123', SECRET_B));
  });

  it('never returns the raw user ID', () => {
    expect(hashUserId('user-123', SECRET_A)).not.toContain('user-123');
  });

  it.each([
    ['too short', SECRET_A.slice(0, 62)],
    ['too long', `${SECRET_A}00`],
    ['not hex', `${SECRET_A.slice(0, 63)}g`],
    ['empty', ''],
  ])('rejects a secret that is %s', (_label, secret) => {
    expect(() => hashUserId('user-123', secret)).toThrow('64 hexadecimal characters');
  });
});
