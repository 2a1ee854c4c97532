// The throttle of wrong passwords, attempt by attempt: an attempt is counted when it is let through
// to the password check, not when its answer comes back, so attempts that arrive together are
// held as if they had come one after another (tests/security/backoffice-sign-in.test.ts sends them
// over the real route).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ACCOUNT_FREE, clientOf, FREE, MAX_LOCK_MS, SignInThrottle } from './throttle.js';

const ADDRESS = '203.0.113.5';

function throttle() {
  const clock = { now: Date.UTC(2026, 10, 26) };
  return { clock, t: new SignInThrottle(() => clock.now) };
}

describe('SignInThrottle', () => {
  it('lets through at once no more attempts than one after another would reach the check', () => {
    const { clock, t } = throttle();
    const begun = Array.from({ length: 20 }, () => t.begin('ana', ADDRESS));
    const through = begun.flatMap((b) => ('attempt' in b ? [b.attempt] : []));
    assert.equal(through.length, FREE + 1);
    for (const b of begun) if ('waitMs' in b) assert.ok(b.waitMs > 0);
    for (const a of through) a.failed();
    // FREE + 1 failures, as one after another: locked for a second.
    assert.deepEqual(t.begin('ana', ADDRESS), { waitMs: 1000 });
    clock.now += 1000;
    // Past FREE, one at a time: a second attempt waits while the first is being checked.
    const one = t.begin('ana', ADDRESS);
    assert.ok('attempt' in one);
    assert.ok('waitMs' in t.begin('ana', ADDRESS));
    // An attempt that got no answer (the check threw) is given back, uncounted.
    one.attempt.abandoned();
    const two = t.begin('ana', ADDRESS);
    assert.ok('attempt' in two);
    two.attempt.failed();
    two.attempt.failed();
    assert.deepEqual(t.begin('ana', ADDRESS), { waitMs: 2000 }, 'an attempt ended twice counts once');
    // The same account from another address is not slowed.
    assert.ok('attempt' in t.begin('ana', '10.1.1.1'));
  });

  it('a success forgets the pair; wrong passwords whose answer comes after it still count', () => {
    const { t } = throttle();
    const wrong = Array.from({ length: FREE }, () => t.begin('ana', ADDRESS)).flatMap((b) => ('attempt' in b ? [b.attempt] : []));
    const right = t.begin('ana', ADDRESS);
    assert.ok('attempt' in right);
    right.attempt.succeeded();
    for (const a of wrong) a.failed();
    // FREE failures after the success: one more may be checked, and only one at a time.
    const next = t.begin('ana', ADDRESS);
    assert.ok('attempt' in next);
    assert.ok('waitMs' in t.begin('ana', ADDRESS));
    next.attempt.succeeded();
    const fresh = Array.from({ length: FREE + 2 }, () => t.begin('ana', ADDRESS));
    assert.equal(fresh.filter((b) => 'attempt' in b).length, FREE + 1, 'forgotten: FREE + 1 at once again');
  });
});

// The lock is a span of time, not a date: a wall clock stepped (NTP, a technician, a VM resumed)
// must neither open a locked pair at once nor keep it locked for the size of the step.
describe("SignInThrottle's own clock", () => {
  function lockedForASecond(t: SignInThrottle): void {
    for (let i = 0; i <= FREE; i++) {
      const b = t.begin('ana', ADDRESS);
      assert.ok('attempt' in b, `attempt ${i} let through`);
      b.attempt.failed();
    }
  }

  it('a wall clock set forward an hour does not open a locked pair', (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.UTC(2026, 11, 5, 8) });
    const throttle = new SignInThrottle();
    lockedForASecond(throttle);
    t.mock.timers.setTime(Date.UTC(2026, 11, 5, 9));
    const after = throttle.begin('ana', ADDRESS);
    assert.ok('waitMs' in after && after.waitMs > 0 && after.waitMs <= 1000, JSON.stringify(after));
  });

  it('a wall clock set back a day does not keep a pair locked for a day', (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.UTC(2026, 11, 5, 8) });
    const throttle = new SignInThrottle();
    lockedForASecond(throttle);
    t.mock.timers.setTime(Date.UTC(2026, 11, 4, 8));
    const after = throttle.begin('ana', ADDRESS);
    assert.ok('attempt' in after || after.waitMs <= 1000, JSON.stringify(after));
  });

  it('counts an IPv6 address as its /64, in any of its written forms, and an IPv4 one (mapped too) as itself', () => {
    const net = clientOf('2001:db8:7:1::5');
    for (const a of [
      '2001:0db8:0007:0001:0000:0000:0000:0009',
      '2001:DB8:7:1:ffff::1',
      '2001:db8:7:1:1:2:3.4.5.6',
      'fe80::1%eth0'.replace('fe80', '2001:db8:7:1'),
    ])
      assert.equal(clientOf(a), net, a);
    assert.notEqual(clientOf('2001:db8:7:2::5'), net);
    assert.equal(clientOf('::1:2:3:4:5:1.2.3.4'), clientOf('0:1:2:3:4:5:102:304'));
    assert.equal(clientOf('::ffff:203.0.113.5'), '203.0.113.5');
    assert.equal(clientOf('203.0.113.5'), '203.0.113.5');
  });

  // What a trusted proxy's X-Forwarded-For may put in req.ip (proxy-addr returns the first address
  // it does not trust as written): some proxies write the client's port, and each connection of a
  // guesser has its own. Read as written, each port was a client with its FREE guesses; an
  // IPv4-mapped address in hex (::ffff:cb00:7105) was the /64 0:0:0:0, every IPv4 client's at once.
  it('reads an address with a port, a zone, or IPv4 mapped in any form, as the client it is', () => {
    const net = clientOf('2001:db8:7:1::5');
    for (const a of ['[2001:db8:7:1::5]:443', '[2001:db8:7:1::9]:50123', '[2001:db8:7:1::9%eth0]:80', '2001:db8:7:1::9%25eth0'])
      assert.equal(clientOf(a), net, a);
    for (const a of [
      '203.0.113.5:4711',
      '[::ffff:203.0.113.5]:4711',
      '::ffff:cb00:7105',
      '0:0:0:0:0:ffff:203.0.113.5',
      '::FFFF:CB00:7105',
      '[::ffff:cb00:7105]',
    ])
      assert.equal(clientOf(a), '203.0.113.5', a);
    assert.notEqual(clientOf('::ffff:cb00:7106'), clientOf('::ffff:cb00:7105'));
  });
});

// An account's failures from every address together (AccountTotals): a guesser's addresses each
// under their own pair's lock still lock the account, but not for a client that signed in to it.
describe("SignInThrottle: an account's total", () => {
  /** One wrong password for `ana` from each of `n` fresh addresses, after `from`. */
  function guesses(t: SignInThrottle, n: number, from: number): number {
    let checked = 0;
    for (let i = from; i < from + n; i++) {
      const b = t.begin('ana', `198.51.100.${i}`);
      if ('attempt' in b) {
        checked += 1;
        b.attempt.failed();
      }
    }
    return checked;
  }

  it('locks the account for new clients past ACCOUNT_FREE, never for one that signed in, and a success gives no budget back', () => {
    const { clock, t } = throttle();
    const desk = t.begin('ana', '10.1.1.30');
    assert.ok('attempt' in desk);
    desk.attempt.succeeded();
    assert.equal(guesses(t, 100, 0), ACCOUNT_FREE + 1);
    const stranger = t.begin('ana', '198.51.100.200');
    assert.ok('waitMs' in stranger && stranger.by === 'account', JSON.stringify(stranger));
    assert.ok('attempt' in t.begin('bea', '198.51.100.200'), 'another account is not held');
    const again = t.begin('ana', '10.1.1.30');
    assert.ok('attempt' in again, 'the client that signed in is not held by the account');
    again.attempt.succeeded();
    clock.now += 1000;
    assert.equal(guesses(t, 10, 100), 1, 'the success gave the guesser no free guesses back: one, then a lock of 2 s');
    // Long after the last failure, counted from nothing again.
    clock.now += 2 * MAX_LOCK_MS + 1;
    assert.equal(guesses(t, 100, 110), ACCOUNT_FREE + 1);
  });
});
