// The back office's sign-in under attack (issue 49): a password guesser, a viewer reaching for a
// supervisor's and an administrator's actions, a stolen cookie replayed after sign-out, and a
// forged cross-site POST. Each is written as the attack it is, against the real routes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ABSOLUTE_MS } from '../../upstream/backoffice/sessions.js';
import { FREE, MAX_LOCK_MS } from '../../upstream/backoffice/throttle.js';
import { backofficeKit, PASSWORD, post, signIn, type BackofficeKit } from './backoffice-kit.js';

describe('back office sign-in under attack', () => {
  let kit: BackofficeKit;
  let alarmId: number;
  before(async () => {
    kit = await backofficeKit();
    const a = await kit.db.query<{ id: number }>("INSERT INTO alarms (terminal_id, kind, detail) VALUES ('T1', 'divergence', '{}') RETURNING id");
    alarmId = Number(a.rows[0]?.id);
  });
  after(() => kit.close());

  it('1,000 wrong passwords from one address let nobody in and lock the account out of nowhere for ever', async () => {
    const attacker = '203.0.113.9';
    const answers = new Map<number, number>();
    let longestWait = 0;
    for (let i = 0; i < 1000; i++) {
      kit.clock.now += 7_000;
      const r = await kit.app.inject({
        method: 'POST',
        url: '/backoffice/api/sign-in',
        payload: { name: 'supervisor', password: `guess-${i}` },
        remoteAddress: attacker,
      });
      answers.set(r.statusCode, (answers.get(r.statusCode) ?? 0) + 1);
      if (r.statusCode === 429) longestWait = Math.max(longestWait, Number(r.headers['retry-after']) * 1000);
    }
    assert.equal(answers.get(200), undefined, 'no wrong password signs in');
    assert.deepEqual([...answers.keys()].sort(), [401, 429]);
    // The guesser is slowed to a few checks an hour, not one per request…
    assert.ok((answers.get(401) ?? 0) < 40, `${answers.get(401)} passwords were checked`);
    // …but never for longer than the cap: the lock opens by itself.
    assert.ok(longestWait <= MAX_LOCK_MS, `waited ${longestWait} ms`);
    // The right password from the user's own address works at once: nobody is locked out.
    await signIn(kit.app, 'supervisor', PASSWORD, '10.1.1.20');
    // And from the attacker's address once the lock has run out.
    const locked = await kit.app.inject({
      method: 'POST',
      url: '/backoffice/api/sign-in',
      payload: { name: 'supervisor', password: PASSWORD },
      remoteAddress: attacker,
    });
    assert.equal(locked.statusCode, 429, 'still locked right after the last failure');
    kit.clock.now += MAX_LOCK_MS;
    await signIn(kit.app, 'supervisor', PASSWORD, attacker);
    // Every attempt is in the audit log.
    const audited = await kit.db.query<{ n: number }>("SELECT COUNT(*)::int AS n FROM audit_log WHERE action = 'sign-in.refused' AND address = $1", [attacker]);
    assert.equal(audited.rows[0]?.n, 1001);
  });

  it('an unknown name is refused like a wrong password', async () => {
    const r = await kit.app.inject({
      method: 'POST',
      url: '/backoffice/api/sign-in',
      payload: { name: 'nobody', password: PASSWORD },
      remoteAddress: '10.9.9.9',
    });
    assert.equal(r.statusCode, 401);
    assert.equal(r.json().error, 'wrong-name-or-password');
  });

  it('a viewer can neither acknowledge an alarm nor configure', async () => {
    const viewer = await signIn(kit.app, 'viewer');
    const ack = await post(kit.app, viewer, `/backoffice/api/alarms/${alarmId}/acknowledge`, { note: 'I am only a viewer' });
    assert.equal(ack.statusCode, 403);
    assert.equal(ack.json().error, 'role');
    const conf = await post(kit.app, viewer, '/backoffice/api/settings', { gamingDayStartHour: 3 });
    assert.equal(conf.statusCode, 403);
    const acks = await kit.db.query('SELECT 1 FROM alarm_acks WHERE alarm_id = $1', [alarmId]);
    assert.equal(acks.rows.length, 0);
    const settings = await kit.app.inject({ method: 'GET', url: '/backoffice/api/settings', headers: { cookie: viewer.cookie } });
    assert.equal(settings.json().gamingDayStartHour, 6);
    // A supervisor acknowledges, an administrator configures: the refusals above are the role's.
    const supervisor = await signIn(kit.app, 'supervisor');
    assert.equal((await post(kit.app, supervisor, `/backoffice/api/alarms/${alarmId}/acknowledge`, { note: 'checked' })).statusCode, 200);
    assert.equal((await post(kit.app, supervisor, '/backoffice/api/settings', { gamingDayStartHour: 3 })).statusCode, 403);
    const admin = await signIn(kit.app, 'administrator');
    assert.equal((await post(kit.app, admin, '/backoffice/api/settings', { gamingDayStartHour: 7 })).json().gamingDayStartHour, 7);
  });

  it('a session cannot be replayed after sign-out', async () => {
    const s = await signIn(kit.app, 'supervisor');
    const before = await kit.app.inject({ method: 'GET', url: '/backoffice/api/session', headers: { cookie: s.cookie } });
    assert.equal(before.statusCode, 200);
    const out = await post(kit.app, s, '/backoffice/api/sign-out');
    assert.equal(out.statusCode, 204);
    assert.match(String(out.headers['set-cookie']), /Max-Age=0/);
    // The captured cookie and CSRF token, sent again as they were.
    const replayGet = await kit.app.inject({ method: 'GET', url: '/backoffice/api/session', headers: { cookie: s.cookie } });
    assert.equal(replayGet.statusCode, 401);
    const replayPost = await post(kit.app, s, `/backoffice/api/alarms/${alarmId}/acknowledge`, { note: 'replayed' });
    assert.equal(replayPost.statusCode, 401);
  });

  it('a session ends when idle past its limit', async () => {
    const s = await signIn(kit.app, 'viewer');
    kit.clock.now += 31 * 60_000;
    const r = await kit.app.inject({ method: 'GET', url: '/backoffice/api/session', headers: { cookie: s.cookie } });
    assert.equal(r.statusCode, 401);
  });

  it('a POST without its CSRF token, or from another origin, is refused', async () => {
    const s = await signIn(kit.app, 'supervisor');
    const url = `/backoffice/api/alarms/${alarmId}/acknowledge`;
    const noToken = await kit.app.inject({ method: 'POST', url, payload: { note: 'forged' }, headers: { cookie: s.cookie } });
    assert.equal(noToken.statusCode, 403);
    assert.equal(noToken.json().error, 'csrf');
    const wrongToken = await kit.app.inject({
      method: 'POST',
      url,
      payload: { note: 'forged' },
      headers: { cookie: s.cookie, 'x-csrf-token': 'x'.repeat(43) },
    });
    assert.equal(wrongToken.statusCode, 403);
    const foreign = await kit.app.inject({
      method: 'POST',
      url,
      payload: { note: 'forged' },
      headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, origin: 'https://evil.example', host: '127.0.0.1:8787' },
    });
    assert.equal(foreign.statusCode, 403);
    const signOut = await kit.app.inject({ method: 'POST', url: '/backoffice/api/sign-out', headers: { cookie: s.cookie } });
    assert.equal(signOut.statusCode, 403, 'signing someone out is a state change too');
    const notes = await kit.db.query<{ note: string }>('SELECT note FROM alarm_acks WHERE alarm_id = $1', [alarmId]);
    assert.ok(notes.rows.every((n) => n.note !== 'forged'));
  });

  it('answers no admin token and needs none: the query routes still refuse a session cookie', async () => {
    const s = await signIn(kit.app, 'administrator');
    const r = await kit.app.inject({ method: 'GET', url: '/v1/terminals', headers: { cookie: s.cookie } });
    assert.equal(r.statusCode, 403);
  });
});

describe('back office sign-in: wrong passwords sent at once', () => {
  it('are counted before their passwords are checked: no more reach the check than one after another would', async () => {
    // The production limit of the route (30 a minute per address) lets them all in; the throttle must hold them.
    const kit = await backofficeKit({ signInPerMinute: 30 });
    try {
      const attacker = '203.0.113.77';
      const attempt = (password: string) =>
        kit.app.inject({ method: 'POST', url: '/backoffice/api/sign-in', payload: { name: 'supervisor', password }, remoteAddress: attacker });
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt(`guess-${i}`)));
      const count = (status: number) => answers.filter((r) => r.statusCode === status).length;
      // One after another, FREE failures cost nothing and the next locks: FREE + 1 passwords checked.
      assert.ok(count(401) <= FREE + 1, `${count(401)} of 20 wrong passwords sent at once were checked`);
      assert.equal(count(401) + count(429), 20);
      const checked = await kit.db.query<{ n: number }>(
        "SELECT COUNT(*)::int AS n FROM audit_log WHERE action = 'sign-in.refused' AND address = $1 AND detail->>'reason' = 'wrong-name-or-password'",
        [attacker],
      );
      assert.equal(checked.rows[0]?.n, count(401));
      // Locked now: the right password from there waits like any other attempt…
      const locked = await attempt(PASSWORD);
      assert.equal(locked.statusCode, 429, locked.body);
      assert.equal(locked.json().error, 'throttled');
      // …while the user at their own address signs in at once…
      await signIn(kit.app, 'supervisor', PASSWORD, '10.1.1.30');
      // …and from there once the lock has run out, as normal.
      kit.clock.now += Number(locked.headers['retry-after']) * 1000;
      await signIn(kit.app, 'supervisor', PASSWORD, attacker);
    } finally {
      await kit.close();
    }
  });
});

describe("back office sign-in: the throttle's clock is not the wall clock", () => {
  it('a wall clock set forward an hour does not open a locked address', async () => {
    const kit = await backofficeKit({ throttleOnItsOwnClock: true });
    try {
      const attacker = '203.0.113.78';
      const attempt = (password: string) =>
        kit.app.inject({ method: 'POST', url: '/backoffice/api/sign-in', payload: { name: 'supervisor', password }, remoteAddress: attacker });
      for (let i = 0; i <= FREE; i++) assert.equal((await attempt(`guess-${i}`)).statusCode, 401);
      assert.equal((await attempt(PASSWORD)).statusCode, 429, 'locked after FREE + 1 wrong passwords');
      // The sessions' clock (the wall clock) jumps an hour; the lock's second has not passed.
      kit.clock.now += 60 * 60_000;
      const after = await attempt(PASSWORD);
      assert.equal(after.statusCode, 429, after.body);
    } finally {
      await kit.close();
    }
  });
});

describe('back office: the session cookie lives as long as the session', () => {
  /** The one Set-Cookie of an answer: its value and attributes (`max-age` as a number). */
  function cookieOf(headers: Record<string, unknown>): { value: string; maxAge: number; flags: string[] } | null {
    const set = headers['set-cookie'];
    if (set === undefined) return null;
    assert.equal(typeof set, 'string', `one Set-Cookie, not ${JSON.stringify(set)}`);
    const [pair = '', ...attrs] = String(set).split('; ');
    const maxAge = attrs.find((a) => a.startsWith('Max-Age='));
    assert.ok(maxAge, String(set));
    return { value: pair, maxAge: Number(maxAge.slice('Max-Age='.length)), flags: attrs.filter((a) => !a.startsWith('Max-Age=')) };
  }

  it('is sent again, to the new expiry, whenever a request moves the expiry on; never past the 12 hours', async () => {
    const kit = await backofficeKit();
    try {
      const signedInAt = kit.clock.now;
      const s = await signIn(kit.app, 'viewer');
      const session = () => kit.app.inject({ method: 'GET', url: '/backoffice/api/session', headers: { cookie: s.cookie } });
      // 20 minutes on: the browser would drop a cookie of Max-Age 1800 ten minutes from now.
      kit.clock.now += 20 * 60_000;
      const r = await session();
      assert.equal(r.statusCode, 200);
      const c = cookieOf(r.headers);
      assert.ok(c, 'a request that moves the expiry on sends the cookie again');
      assert.equal(c.value, s.cookie, 'the same session');
      assert.deepEqual(c.flags, ['Path=/', 'HttpOnly', 'SameSite=Strict']);
      const ends = kit.clock.now + c.maxAge * 1000;
      assert.ok(ends >= Date.parse(r.json().expiresAt), `the cookie ends ${new Date(ends).toISOString()}, the session ${r.json().expiresAt}`);
      assert.ok(ends <= signedInAt + ABSOLUTE_MS);
      // Kept alive by a request every 20 minutes: the cookie always reaches the session's end, and
      // near the absolute limit no further.
      let last = c;
      while (kit.clock.now + 20 * 60_000 < signedInAt + ABSOLUTE_MS) {
        kit.clock.now += 20 * 60_000;
        const again = await session();
        assert.equal(again.statusCode, 200, `at +${(kit.clock.now - signedInAt) / 60_000} min`);
        last = cookieOf(again.headers) ?? assert.fail('no cookie');
        assert.ok(kit.clock.now + last.maxAge * 1000 >= Date.parse(again.json().expiresAt));
        assert.ok(kit.clock.now + last.maxAge * 1000 <= signedInAt + ABSOLUTE_MS);
      }
      assert.equal(kit.clock.now + last.maxAge * 1000, signedInAt + ABSOLUTE_MS, 'the last cookie ends with the session at 12 hours');
      kit.clock.now = signedInAt + ABSOLUTE_MS;
      assert.equal((await session()).statusCode, 401);
    } finally {
      await kit.close();
    }
  });

  it('sign-out sends one cookie, the one that clears it; the floor stream sends it again like any request', async () => {
    const kit = await backofficeKit();
    try {
      const s = await signIn(kit.app, 'supervisor');
      kit.clock.now += 20 * 60_000;
      const url = await kit.app.listen({ port: 0, host: '127.0.0.1' });
      const ac = new AbortController();
      const events = await fetch(`${url}/backoffice/api/floor/events`, { headers: { cookie: s.cookie }, signal: ac.signal });
      assert.equal(events.status, 200);
      const renewed = events.headers.get('set-cookie');
      ac.abort();
      assert.ok(renewed, 'the stream opened 20 minutes on renews the cookie');
      assert.match(renewed, /Max-Age=1800/);
      const out = await post(kit.app, s, '/backoffice/api/sign-out');
      assert.equal(out.statusCode, 204);
      assert.equal(cookieOf(out.headers)?.maxAge, 0);
    } finally {
      await kit.close();
    }
  });
});
