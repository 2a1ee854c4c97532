import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createI18n } from '../../../locales/i18n.js';
import { notFollowedLines } from './station-play.js';

// A bettor behind a seat that split again and again, short of credit each time, was told the same
// line once a split: sixteen lines at 44 units ran the station's result text off the screen.
describe('a station told of its bets behind that did not follow', () => {
  it('says each seat and action once', () => {
    const i18n = createI18n('en');
    const t = i18n.getFixedT('en');
    const splits = Array.from({ length: 16 }, () => ({ seat: 1, action: 'split' as const }));
    const lines = notFollowedLines(t, [...splits, { seat: 1, action: 'double' }, { seat: 3, action: 'split' }]);
    assert.equal(lines.length, 3, lines.join('\n'));
    assert.ok(lines.every((l) => !l.includes('station.notFollowed')));
  });
});
