import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Graphics } from 'pixi.js';
import { ContextCache } from './context-cache.js';

describe('ContextCache: a Graphics shows one of a few looks, each drawn once', () => {
  it('draws a look the first time it is asked for and gives the same context after', () => {
    const cache = new ContextCache(4);
    let drawn = 0;
    const ring = (r: number) => cache.get(`ring:${r}`, (c) => void (drawn++, c.circle(0, 0, r).stroke({ width: 4, color: 0xffffff })));
    const g = new Graphics();
    const a = ring(80);
    g.context = a;
    for (let round = 0; round < 5; round++) {
      g.context = ring(80);
      g.context = ring(96);
    }
    assert.equal(drawn, 2, 'two looks, each drawn once over five rounds');
    assert.equal(ring(80), a);
    assert.equal(g.getLocalBounds().width, 96 * 2 + 4, 'the Graphics shows the look it was given last');
    cache.destroy();
    g.destroy();
  });

  it('keeps at most `max` looks, letting go of the least recently used, never the one just asked for', () => {
    const cache = new ContextCache(2);
    const look = (k: string) => cache.get(k, (c) => void c.rect(0, 0, 10, 10).fill({ color: 0xff0000 }));
    const a = look('a');
    const b = look('b');
    look('a');
    const c = look('c');
    assert.equal(cache.size, 2);
    assert.equal(b.destroyed, true, 'b, used least recently, is let go');
    assert.equal(a.destroyed, false);
    assert.equal(c.destroyed, false);
    cache.destroy();
    assert.equal(a.destroyed && c.destroyed, true, 'destroyed with the cache');
    assert.equal(cache.size, 0);
  });
});
