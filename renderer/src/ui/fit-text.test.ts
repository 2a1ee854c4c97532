import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Text } from 'pixi.js';
import { fitFontSize } from './fit-text.js';

/** A width as a browser's would go: a CJK character a font size wide, anything else 0.6 of one. */
const measure = (t: Text) => [...t.text].reduce((w, c) => w + (c.codePointAt(0)! >= 0x2e80 ? 1 : 0.6), 0) * Number(t.style.fontSize);

describe('fitFontSize: a line kept inside its box', () => {
  it('leaves a line that fits at its size', () => {
    const t = new Text({ text: 'Coups 9', style: { fontSize: 24 } });
    assert.equal(fitFontSize(t, 24, 400, measure), 24);
    assert.equal(t.style.fontSize, 24);
  });

  it('brings a line too wide down to the largest whole size that fits', () => {
    const t = new Text({ text: '局數 74　莊 37　閒 32　和 5　莊對 12　閒對 18', style: { fontSize: 24 } });
    assert.ok(measure(t) > 463, 'too wide at 24 (else this proves nothing)');
    const size = fitFontSize(t, 24, 463, measure);
    assert.ok(measure(t) <= 463, `${measure(t)} wide at ${size}`);
    t.style.fontSize = size + 1;
    assert.ok(measure(t) > 463, 'one size larger would not fit');
  });

  it('goes back up to its size when the line is short again', () => {
    const t = new Text({ text: 'x'.repeat(100), style: { fontSize: 24 } });
    fitFontSize(t, 24, 300, measure);
    t.text = 'short';
    assert.equal(fitFontSize(t, 24, 300, measure), 24);
  });

  it('never goes below its least size', () => {
    const t = new Text({ text: 'x'.repeat(1000), style: { fontSize: 24 } });
    assert.equal(fitFontSize(t, 24, 100, measure, 12), 12);
  });
});
