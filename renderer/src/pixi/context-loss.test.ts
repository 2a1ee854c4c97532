import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Container } from 'pixi.js';
import type { ReportBody } from '../../../protocol/index.js';
import { ContextLoss } from './context-loss.js';

/** A canvas that fires the context events when the test says, a stage with cached layers, a clock the test moves. */
function setup() {
  const canvas = new EventTarget();
  const stage = new Container();
  const cached = [new Container(), new Container()];
  const inner = new Container();
  stage.addChild(cached[0]!, inner);
  inner.addChild(cached[1]!);
  for (const c of cached) c.cacheAsTexture(true);
  const marked: number[] = [];
  cached.forEach((c, i) => (c.updateCacheTexture = () => void marked.push(i)));
  const order: string[] = [];
  let now = 1000;
  const events: string[] = [];
  const reports: ReportBody[] = [];
  const loss = new ContextLoss({
    canvas,
    stage,
    drawNow: () => {
      order.push(`frame after ${marked.length} layers marked`);
      now += 40;
    },
    now: () => now,
    emit: (e) => events.push(e),
  });
  loss.reportTo((r) => reports.push(r));
  const fire = (type: 'webglcontextlost' | 'webglcontextrestored') => canvas.dispatchEvent(new Event(type));
  return { loss, fire, order, marked, events, reports, tick: (ms: number) => (now += ms) };
}

describe('a lost WebGL context survived (issue 52)', () => {
  it('draws nothing while lost, then redraws every baked art, marks every cached layer, draws a frame and reports it', () => {
    const env = setup();
    env.loss.add('card-atlas', () => (env.order.push('atlas'), true));
    env.loss.add('felt', () => (env.order.push('felt'), true));
    env.fire('webglcontextlost');
    assert.equal(env.loss.lost, true);
    assert.deepEqual(env.reports, [{ event: 'gpu-context-lost' }]);
    env.tick(500);
    env.fire('webglcontextrestored');
    assert.equal(env.loss.lost, false);
    assert.deepEqual(env.order, ['atlas', 'felt', 'frame after 2 layers marked'], 'the bakes first, then the layers that may hold them, then the frame');
    assert.deepEqual(env.marked.sort(), [0, 1], 'nested layers too');
    assert.deepEqual(env.reports[1], { event: 'gpu-context-restored', redrawn: ['card-atlas', 'felt'], failed: [], cachedLayers: 2, ms: 40 });
    assert.deepEqual(env.events, ['gpu:gpu-context-lost', 'gpu:gpu-context-restored']);
  });

  it('names only art that was drawn, and art that threw as failed without leaving the rest blank', () => {
    const env = setup();
    env.loss.add('road-marks', () => false);
    env.loss.add('button-faces', () => {
      throw new Error('no GPU memory');
    });
    env.loss.add('felt', () => true);
    const error = console.error;
    console.error = () => {};
    try {
      env.fire('webglcontextrestored');
    } finally {
      console.error = error;
    }
    const restored = env.reports.at(-1);
    assert.ok(restored?.event === 'gpu-context-restored');
    assert.deepEqual([restored.redrawn, restored.failed], [['felt'], ['button-faces']]);
  });

  it('several screens of one art are each drawn again; a screen gone is not', () => {
    const env = setup();
    let a = 0;
    let b = 0;
    env.loss.add('felt', () => (a++, true));
    const forget = env.loss.add('felt', () => (b++, true));
    env.fire('webglcontextrestored');
    forget();
    env.fire('webglcontextrestored');
    assert.deepEqual([a, b], [2, 1]);
  });

  it('reports nowhere before the link exists, but the test hooks hear it', () => {
    const canvas = new EventTarget();
    const events: string[] = [];
    new ContextLoss({ canvas, stage: new Container(), drawNow: () => {}, now: () => 0, emit: (e) => events.push(e) });
    canvas.dispatchEvent(new Event('webglcontextlost'));
    assert.deepEqual(events, ['gpu:gpu-context-lost']);
  });
});
