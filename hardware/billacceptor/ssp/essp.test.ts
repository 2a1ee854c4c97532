import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { fromHex, toHex } from '../../bytes.js';
import { EsspSession, STEX, aesKey, isPrime, modPow, randomPrime, readU64le, u64le } from './essp.js';
import { SspParser, encodeSsp } from './frame.js';

describe('eSSP', () => {
  it('SET GENERATOR 982451653 matches the GA138 example frame', () => {
    assert.equal(toHex(encodeSsp(0x80, [0x4a, ...u64le(982451653n)])), '7F 80 09 4A C5 05 8F 3A 00 00 00 00 B2 73');
    assert.equal(readU64le(fromHex('C5 05 8F 3A 00 00 00 00')), 982451653n);
    assert.ok(isPrime(982451653n));
    assert.ok(!isPrime(982451653n * 3n));
  });
  it('Diffie-Hellman: both sides derive the same key', () => {
    const g = randomPrime(40);
    const p = randomPrime(62);
    const a = 123456789n;
    const b = 987654321n;
    assert.equal(modPow(modPow(g, b, p), a, p), modPow(modPow(g, a, p), b, p));
  });
  it('wrap/unwrap round trip with counters; wrong count, wrong key and damage are rejected', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 60 }), fc.nat(), (data, flip) => {
        const key = aesKey(0x0123456701234567n, 42n);
        const host = new EsspSession(key);
        const dev = new EsspSession(key);
        const w = Uint8Array.from(host.wrap(data));
        assert.equal(w[0], STEX);
        assert.equal((w.length - 1) % 16, 0);
        assert.equal(toHex(dev.unwrap(w)!), toHex(data));
        assert.equal(toHex(dev.unwrap(w)!), toHex(data), 'the same packet again (a repeated reply) unwraps to the same data');
        const w2 = Uint8Array.from(host.wrap(data));
        dev.count += 1; // the device lost step
        assert.equal(dev.unwrap(w2), null, 'count mismatch');
        const other = new EsspSession(aesKey(1n, 42n));
        other.count = 1;
        assert.equal(other.unwrap(Uint8Array.from(host.wrap(data))), null);
        const bad = Uint8Array.from(host.wrap(data));
        bad[1 + (flip % 16)] = (bad[1 + (flip % 16)] ?? 0) ^ 0x01; // the first block holds eLENGTH and eCOUNT
        assert.equal(new EsspSession(key).unwrap(bad), null);
        // and the whole thing travels in an ordinary (stuffed) SSP frame
        const f = new SspParser().push(encodeSsp(0x00, w));
        assert.equal(toHex(f[0]!.data), toHex(w));
      }),
      { numRuns: 50 },
    );
  });
});
