import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BACCARAT_PROFILES, baccaratProfile, parseBaccaratProfile, ProfileError } from './profiles.js';
import { warProfile } from '../war/profiles.js';

const good = (): Record<string, unknown> => JSON.parse(JSON.stringify(BACCARAT_PROFILES['macau-commission'])) as Record<string, unknown>;

function refusal(input: unknown): string {
  try {
    parseBaccaratProfile(input);
  } catch (e) {
    assert.ok(e instanceof ProfileError, String(e));
    return e.message;
  }
  assert.fail('the profile was accepted');
}

describe('baccarat profile schema (zod)', () => {
  it('refuses a bad override of a nested option, naming the field, what it expects and what it got', () => {
    const p = good();
    p.banker = { ...(p.banker as object), commissionBasisPoints: 10001 };
    assert.equal(refusal(p), 'profile.banker.commissionBasisPoints: expected an integer 0–10000, got 10001');
    const q = good();
    q.payouts = { ...(q.payouts as object), tie: { win: 8.5, per: 1, rule: 'x' } };
    assert.equal(refusal(q), 'profile.payouts.tie.win: expected an integer 0–1000, got 8.5');
  });

  it('lists every bad field, unknown keys by name and missing ones as missing', () => {
    const p = { ...good(), decks: '8', burn: 'all', bonus: 1, betRules: undefined };
    const m = refusal(p);
    assert.match(m, /profile\.decks: expected an integer 1–16, got "8"/);
    assert.match(m, /profile\.burn: expected one of first-card-value, decks, fixed, none, got "all"/);
    assert.match(m, /profile\.bonus: unknown field/);
    assert.match(m, /profile\.betRules: expected an object, missing/);
    assert.equal(refusal({ ...good(), banker: { kind: 'house' } }), 'profile.banker.kind: expected one of commission, no-commission, got "house"');
    assert.equal(refusal(null), 'profile: expected an object, got null');
  });

  it('checks the cut card against decks and coups after it, once those are valid', () => {
    assert.equal(refusal({ ...good(), coupsAfterCutCard: 2, cutCardFromEnd: 17 }), 'profile.cutCardFromEnd: expected an integer 18–396, got 17');
    assert.equal(refusal({ ...good(), decks: 1, cutCardFromEnd: 33 }), 'profile.cutCardFromEnd: expected an integer 12–32, got 33');
    // A bad deck count is reported alone, not also as a nonsense cut-card range.
    assert.equal(refusal({ ...good(), decks: 0 }), 'profile.decks: expected an integer 1–16, got 0');
    assert.equal(parseBaccaratProfile({ ...good(), decks: 1, cutCardFromEnd: 32 }).cutCardFromEnd, 32);
  });

  it('knows only its own profile ids, not the names an object inherits', () => {
    for (const id of ['toString', 'constructor', '__proto__', 'macau']) {
      assert.throws(() => baccaratProfile(id), /unknown baccarat profile/, id);
    }
    for (const id of ['hasOwnProperty', 'macau-commission']) assert.throws(() => warProfile(id), /unknown war profile/, id);
  });
});
