import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { textureChanges, textureKinds, type TextureRow } from './texture-sources.js';

const row = (uid: number, kind: string, owner = '', width = 512, height = 64): TextureRow => ({ uid, label: '', width, height, kind, owner });

describe("the long-run bench's texture sources, sample to sample", () => {
  it('names the sources that came, went and changed hands', () => {
    const before = [row(1, 'text', 'a'), row(2, 'pooled'), row(3, 'sprite', 'still>panel>baked', 1024, 1024)];
    const after = [row(1, 'pooled'), row(3, 'sprite', 'still>panel>baked', 1024, 1024), row(4, 'text', 'b', 1024, 64)];
    assert.deepEqual(textureChanges(before, after), ['~ #1 512×64 text a → 512×64 pooled', '+ #4 1024×64 text b', '- #2 512×64 pooled']);
    assert.deepEqual(textureChanges(after, after), []);
  });

  it('counts them by kind', () => {
    assert.equal(textureKinds([row(1, 'text'), row(2, 'pooled'), row(3, 'text')]), 'text 2, pooled 1');
  });
});
