import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { verifyPassword } from 'better-auth/crypto';

/**
 * `PASSWORD_HASHING=fast-for-tests` (refused in production): scrypt at a 16th of better-auth's
 * work, so the test suite's hundreds of sign-ups and sign-ins do not spend a minute of CPU on
 * hashing (better-auth's scrypt costs about 100 ms a password on the test machine). Everything
 * else — better-auth's flows, the stored account rows, wrong-password handling — is unchanged.
 * Hashes made this way carry a prefix; a standard hash is still checked the standard way.
 */
const FAST_PREFIX = 'scrypt-fast$';
const fastParameters = { N: 1024, r: 16, p: 1, maxmem: 64 * 1024 * 1024 } as const;

function fastKey(password: string, salt: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, 64, fastParameters, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export const fastPasswordHashing = {
  async hash(password: string): Promise<string> {
    const salt = randomBytes(16).toString('hex');
    return `${FAST_PREFIX}${salt}:${(await fastKey(password, salt)).toString('hex')}`;
  },
  async verify({ hash, password }: { hash: string; password: string }): Promise<boolean> {
    if (!hash.startsWith(FAST_PREFIX)) return verifyPassword({ hash, password });
    const [salt = '', key = ''] = hash.slice(FAST_PREFIX.length).split(':');
    const expected = Buffer.from(key, 'hex');
    const actual = await fastKey(password, salt);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  },
};
