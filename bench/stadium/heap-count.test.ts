import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countHeap } from './heap-count.js';

describe("the stadium bench's heap count", () => {
  it('counts the bytes a stretch allocated and its collections, kept or not', () => {
    const kept: { i: number; s: string }[] = [];
    const count = countHeap();
    // At least 48 MiB of short-lived objects (a young generation's worth several times over: each
    // an object and an array, 56 bytes or more, kept a moment in a ring so none is optimised away) and some kept.
    const ring: { i: number; a: number[] }[] = new Array<{ i: number; a: number[] }>(1024);
    for (let i = 0; i < 1_000_000; i++) ring[i % 1024] = { i, a: [i, i + 1] };
    const sink = ring.reduce((n, x) => n + x.a.length, 0);
    for (let i = 0; i < 100_000; i++) kept.push({ i, s: `station ${i}` });
    const c = count.stop();
    assert.equal(sink, 2048);
    assert.ok(c.allocated > 40 * 2 ** 20, `allocated ${c.allocated} bytes`);
    assert.ok(c.allocated < 400 * 2 ** 20, `allocated ${c.allocated} bytes`);
    assert.ok(c.minor >= 1, `${c.minor} scavenges`);
    assert.ok(c.ms >= 0);
    assert.equal(kept.length, 100_000);
  });

  it('counts next to nothing where nothing was allocated', () => {
    const count = countHeap();
    const c = count.stop();
    assert.ok(c.allocated < 2 ** 20, `allocated ${c.allocated} bytes`);
    assert.equal(c.major, 0);
  });
});
