// A password guesser with an IPv6 network (issue 49; docs/backoffice.md, "Sign-in, sessions,
// CSRF"): one subscriber holds a whole /64, 2^64 addresses. Counted per address, each of them
// had its five free guesses and its own 30 sign-ins a minute, so the guesser was not slowed at
// all. A /64 is one client: the throttle and the sign-in route's limit count it as one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backofficeKit } from './backoffice-kit.js';

/** The i-th address of one /64 (written in its several forms: compressed, full, upper case). */
const inOneNetwork = (i: number) =>
  [
    `2001:db8:7:1::${i.toString(16)}`,
    `2001:0db8:0007:0001:0000:0000:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}`,
    `2001:DB8:7:1:${i.toString(16)}::1`,
  ][i % 3] ?? '';

describe('back office sign-in from one IPv6 network', () => {
  it("1,000 wrong passwords from 1,000 addresses of one /64 are slowed as one address's", async () => {
    const kit = await backofficeKit();
    try {
      let checked = 0;
      for (let i = 0; i < 1000; i++) {
        kit.clock.now += 7_000;
        const r = await kit.app.inject({
          method: 'POST',
          url: '/backoffice/api/sign-in',
          payload: { name: 'supervisor', password: `guess-${i}` },
          remoteAddress: inOneNetwork(i),
        });
        assert.ok(r.statusCode === 401 || r.statusCode === 429, r.body);
        if (r.statusCode === 401) checked++;
      }
      assert.ok(checked < 40, `${checked} passwords were checked`);
    } finally {
      await kit.close();
    }
  });

  it("the route's sign-ins a minute are counted per /64, not per address", async () => {
    const kit = await backofficeKit({ signInPerMinute: 30 });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 31; i++) {
        const r = await kit.app.inject({
          method: 'POST',
          url: '/backoffice/api/sign-in',
          payload: { name: `nobody-${i}`, password: 'x' },
          remoteAddress: inOneNetwork(i),
        });
        codes.push(r.statusCode);
      }
      assert.equal(codes.at(-1), 429, codes.join(' '));
      // Another network is not slowed by it.
      const other = await kit.app.inject({
        method: 'POST',
        url: '/backoffice/api/sign-in',
        payload: { name: 'nobody', password: 'x' },
        remoteAddress: '2001:db8:7:2::1',
      });
      assert.equal(other.statusCode, 401);
    } finally {
      await kit.close();
    }
  });
});
