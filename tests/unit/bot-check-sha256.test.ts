import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex, solveAltchaChallenge } from '../../app/lib/bot-check-client.ts';

/**
 * The bot-check client hashes with its own SHA-256 (faster than Web Crypto for this work, and
 * Web Crypto is missing outside secure contexts: docs/decisions/014-newcomer-first-minutes.md).
 * Here it is held to the standard's test vectors and to node:crypto.
 */

const text = (value: string) => new TextEncoder().encode(value);
const nodeSha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('the bot-check client’s SHA-256', () => {
  it('gives the FIPS 180-4 example digests', () => {
    expect(sha256Hex(text(''))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex(text('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    // 56 bytes: the padding needs a second block.
    expect(sha256Hex(text('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('agrees with node:crypto for every length around the block boundaries and for random data', () => {
    for (let length = 0; length <= 200; length++) {
      const bytes = randomBytes(length);
      expect(sha256Hex(bytes), `${length} bytes`).toBe(nodeSha256(bytes));
    }
    for (const length of [1000, 4096, 10_000]) {
      const bytes = randomBytes(length);
      expect(sha256Hex(bytes), `${length} bytes`).toBe(nodeSha256(bytes));
    }
  });

  it('solves a challenge to the counter node:crypto finds, with node:crypto’s key', async () => {
    const salt = randomBytes(16);
    const nonce = randomBytes(16);
    const counter = 1234;
    const message = Buffer.concat([salt, nonce, Buffer.from([counter >>> 24, (counter >>> 16) & 0xff, (counter >>> 8) & 0xff, counter & 0xff])]);
    const key = nodeSha256(message);
    const challenge = { parameters: { algorithm: 'SHA-256', nonce: nonce.toString('hex'), salt: salt.toString('hex'), keyPrefix: key.slice(0, 10) } };
    const payload = JSON.parse(atob(await solveAltchaChallenge(challenge))) as { solution: { counter: number; derivedKey: string } };
    // A smaller counter could match the 10-digit prefix only by a 1 in 2^40 chance.
    expect(payload.solution).toMatchObject({ counter, derivedKey: key });
  });
});
