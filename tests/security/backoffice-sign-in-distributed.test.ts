// A distributed guess at one account: wrong passwords for `supervisor` from many addresses, each
// staying under its own address's lock (FREE failures, then 1 s, 2 s…) and its 30 a minute. Counted
// per account and address only, every address had its FREE free guesses and its own locks: 200
// addresses had 1,000 passwords checked in a moment, and a thousand addresses some 18,000 an hour.
// The account's failures from every address together are held too (ACCOUNT_FREE, then the same
// doubling locks), for every address but those that signed in to that account since the start:
// the staff's own screens are not locked out by a guesser.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ACCOUNT_FREE, FREE } from '../../upstream/backoffice/throttle.js';
import { backofficeKit, PASSWORD, signIn } from './backoffice-kit.js';

const ADDRESSES = 200;

describe('back office sign-in: one account guessed from many addresses', () => {
  it('checks no more of its passwords than its own limit, whatever the number of addresses', async () => {
    const kit = await backofficeKit({ signInPerMinute: 30 });
    try {
      // The pit's own screen signed in before the guessing began.
      await signIn(kit.app, 'supervisor', PASSWORD, '10.1.1.30');
      const attempt = (address: string, password: string) =>
        kit.app.inject({ method: 'POST', url: '/backoffice/api/sign-in', payload: { name: 'supervisor', password }, remoteAddress: address });
      const statuses: number[] = [];
      for (let a = 0; a < ADDRESSES; a++)
        for (let i = 0; i < FREE; i++) statuses.push((await attempt(`198.51.${100 + (a >> 8)}.${a & 0xff}`, `guess-${a}-${i}`)).statusCode);
      const checked = statuses.filter((s) => s === 401).length;
      assert.equal(checked + statuses.filter((s) => s === 429).length, ADDRESSES * FREE);
      // ACCOUNT_FREE failures cost nothing, the next locks the account for a second, and the clock stands still.
      assert.ok(checked <= ACCOUNT_FREE + 1, `${checked} of ${ADDRESSES * FREE} passwords from ${ADDRESSES} addresses were checked`);
      const audited = await kit.db.query<{ n: number }>(
        "SELECT COUNT(*)::int AS n FROM audit_log WHERE action = 'sign-in.refused' AND detail->>'reason' = 'throttled' AND detail->>'by' = 'account'",
      );
      assert.equal(audited.rows[0]?.n, ADDRESSES * FREE - checked, 'each refusal audited, saying the account held it');
      // The right password from an address new to the account waits like a guess…
      const stranger = await attempt('198.51.200.1', PASSWORD);
      assert.equal(stranger.statusCode, 429, stranger.body);
      assert.equal(stranger.json().error, 'throttled');
      // …while the screen that signed in before is not held by the account's lock…
      await signIn(kit.app, 'supervisor', PASSWORD, '10.1.1.30');
      // …another account is not slowed…
      await signIn(kit.app, 'viewer', PASSWORD, '198.51.200.2');
      // …and once the lock has run out, a new address signs in as normal.
      kit.clock.now += Number(stranger.headers['retry-after']) * 1000;
      await signIn(kit.app, 'supervisor', PASSWORD, '198.51.200.1');
    } finally {
      await kit.close();
    }
  });

  it('holds guesses sent at once from many addresses as one after another', async () => {
    const kit = await backofficeKit({ signInPerMinute: 30 });
    try {
      const answers = await Promise.all(
        Array.from({ length: 120 }, (_, a) =>
          kit.app.inject({
            method: 'POST',
            url: '/backoffice/api/sign-in',
            payload: { name: 'supervisor', password: `guess-${a}` },
            remoteAddress: `198.51.100.${a}`,
          }),
        ),
      );
      const checked = answers.filter((r) => r.statusCode === 401).length;
      assert.ok(checked <= ACCOUNT_FREE + 1, `${checked} of 120 sent at once were checked`);
      assert.equal(checked + answers.filter((r) => r.statusCode === 429).length, 120);
    } finally {
      await kit.close();
    }
  });
});
