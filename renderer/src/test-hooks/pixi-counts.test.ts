import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GCManagedHash, GraphicsContext, type Application } from 'pixi.js';
import { pixiCounts } from './pixi-counts.js';

/**
 * pixi's own registries, as its renderer keeps them: a GCManagedHash per system. When a context is
 * destroyed pixi sets its entry to null and leaves the key (it compacts the hash only at 10,000
 * nulls, GCSystem), so a count of the hash's values counted every context ever drawn: the long-run
 * bench showed a station's Graphics contexts, geometries and buffers climbing every round
 * (155 → 215 → 309 in 240 rounds) while none was alive longer than its round.
 */
function fakeRenderer() {
  const gc = { now: 0, addResourceHash: () => undefined };
  const renderer = { uid: 7, gc };
  const hash = () => new GCManagedHash<GraphicsContext>({ renderer: renderer as never, type: 'resource', name: 'test' });
  const graphicsContext = { _managedContexts: hash() };
  return { renderer: { ...renderer, graphicsContext, texture: {}, renderTarget: {}, geometry: {}, buffer: {} }, graphicsContext };
}

describe('pixiCounts: what pixi holds on the GPU now', () => {
  it('counts the contexts alive, not every one pixi ever registered', () => {
    const { renderer, graphicsContext } = fakeRenderer();
    const contexts = Array.from({ length: 5 }, () => new GraphicsContext());
    for (const c of contexts) {
      // What pixi's GraphicsContextSystem does for a context it draws (`_initContext`).
      Reflect.set(c._gpuData, renderer.uid, { destroy: () => undefined });
      graphicsContext._managedContexts.add(c);
    }
    const app = { renderer } as unknown as Application;
    assert.equal(pixiCounts(app).graphicsContexts, 5);
    // Three destroyed: pixi's hash keeps their keys with null values.
    for (const c of contexts.slice(0, 3)) c.destroy();
    assert.equal(Object.keys(graphicsContext._managedContexts.items).length, 5, "pixi's hash keeps the keys (else this test proves nothing)");
    assert.equal(pixiCounts(app).graphicsContexts, 2);
  });
});
