// A password guesser with an IPv6 network (issue 49; docs/backoffice.md, "Sign-in, sessions,
// CSRF"): one subscriber holds a whole /64, 2^64 addresses. Counted per address, each of them
// had its five free guesses and its own 30 sign-ins a minute, so the guesser was not slowed at
// all. A /64 is one client: the throttle and the sign-in route's limit count it as one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildServer, putUser } from '../../upstream/index.js';
import { openDatabase } from '../sync/upstream-databases.js';
import { backofficeKit, FAST, PASSWORD } from './backoffice-kit.js';

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

// Behind a trusted proxy req.ip is what its X-Forwarded-For says, as written: some proxies write
// the client's port, a new one each connection. The route's limit (the rate limiter's own reading
// of req.ip) and the wrong-password throttle counted each port as a client of its own.
describe('back office sign-in through a proxy that writes the client port', () => {
  const PROXY = '10.0.0.5';
  const cases = [
    ['IPv4', (i: number) => `203.0.113.5:${40_000 + i}`],
    ['IPv6', (i: number) => `[2001:db8:7:1::${(i + 1).toString(16)}]:${40_000 + i}`],
  ] as const;
  // One database for the four cases: what they count (the throttle, the route's limit) is each
  // server's own memory, and a server of its own per case starts from nothing; the database only
  // holds the user and the audit. A database each cost about a second of CPU more a case.
  let opened: Awaited<ReturnType<typeof openDatabase>>;
  before(async () => {
    opened = await openDatabase('pglite');
    await putUser(opened.db, { name: 'ana', role: 'supervisor', password: PASSWORD, by: 'test' }, FAST);
  });
  after(() => opened.close());
  /** 31 sign-ins through the proxy, the i-th as `name(i)` from `forwarded(i)`, on a server of their own: their answers' codes. */
  const signIns = async (name: (i: number) => string, forwarded: (i: number) => string): Promise<number[]> => {
    // The throttle's clock stands still: its first lock (1 s) does not run out while the 31 are sent,
    // which took longer than that at load 40 (7 December: a seventh 401 after the lock, old and new).
    const app = await buildServer({ db: opened.db, trustProxy: [PROXY], backoffice: { signInPerMinute: 30, throttleNow: () => 0 } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 31; i++) {
        const r = await app.inject({
          method: 'POST',
          url: '/backoffice/api/sign-in',
          payload: { name: name(i), password: `guess-${i}` },
          headers: { 'x-forwarded-for': forwarded(i) },
          remoteAddress: PROXY,
        });
        codes.push(r.statusCode);
      }
      return codes;
    } finally {
      await app.close();
    }
  };
  for (const [family, forwarded] of cases) {
    it(`the throttle counts one ${family} client at every port as one`, async () => {
      const codes = await signIns(() => 'ana', forwarded);
      // Five free wrong passwords, a sixth that locks the pair, then refused before its password is checked.
      assert.deepEqual(codes.slice(0, 7), [401, 401, 401, 401, 401, 401, 429], codes.join(' '));
      assert.equal(codes.filter((c) => c === 401).length, 6, codes.join(' '));
    });

    it(`the route's sign-ins a minute count one ${family} client at every port as one`, async () => {
      const codes = await signIns((i) => `nobody-${i}`, forwarded);
      assert.equal(codes.filter((c) => c === 401).length, 30, codes.join(' '));
      assert.equal(codes.at(-1), 429, codes.join(' '));
    });
  }
});
