// Issue 27, "Parallel guessing": 120 service connections, each with the service screen's launch
// token, send one sign-in each for the same staff number at the same instant. On the host as it
// stood every wrong PIN was checked, the right one sent last signed in, and the account was left
// unlocked. Also: one screen trying one PIN on each of many staff numbers (no account ever reaches
// its lockout). Every guess goes over a real WebSocket to a real host.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AccountStore } from '../../host/service/accounts.js';
import {
  folderWithAccounts,
  journalled,
  metric,
  metricSum,
  serviceScreen,
  signIn,
  skewedClock,
  startServiceHost,
  stopServiceHost,
  TECH,
} from './service-kit.js';

const LOCK_MS = 15 * 60_000;

describe('parallel PIN guessing (issue 27)', () => {
  it('120 wrong sign-ins at once for one account check at most 5 PINs; the right PIN in the same burst is refused; the account stays locked for its period', async () => {
    const clock = skewedClock();
    const dir = await folderWithAccounts();
    const running = await startServiceHost(dir, clock.timers);
    try {
      const startedAt = clock.now();
      const screens = await Promise.all(Array.from({ length: 121 }, () => serviceScreen(running)));
      const [last, ...guessers] = screens;
      assert.ok(last);
      // 120 wrong PINs, one per connection, all sent before any answer comes back.
      const guesses = guessers.map((s, i) => s.send({ name: 'service-sign-in', staff: TECH.staff, pin: String(100_000 + i) }));
      const replies = await Promise.all(guesses);
      // Every guess has reached the host (each is answered): the right PIN comes in the same burst, after them.
      const right = await last.act({ name: 'service-sign-in', staff: TECH.staff, pin: TECH.pin }, 'the right PIN in the burst');
      // Let every guess the host took finish its check.
      await Promise.all(guessers.map((s, i) => (replies[i]?.type === 'ack' ? s.until((x) => x.busy !== true && x.notice !== null, `guess ${i}`) : null)));

      assert.notEqual(right.state?.signedIn, true, 'the right PIN sent in the burst signs nobody in');
      assert.ok(
        guessers.every((s) => s.state()?.signedIn !== true),
        'no guess signs in',
      );
      assert.deepEqual(
        journalled<{ staff: string }>(running, 'service.enter').filter((e) => e.staff === TECH.staff),
        [],
        'no session of the account was entered',
      );
      const store = new AccountStore(dir);
      try {
        const lockedUntil = store.find(TECH.staff)?.lockedUntil ?? null;
        assert.ok(lockedUntil !== null && Date.parse(lockedUntil) >= startedAt + LOCK_MS, `locked for its period, found ${lockedUntil}`);
      } finally {
        store.close();
      }
      const checked = await metricSum(running, 'etg_service_pin_checks_total', ['outcome="wrong"']);
      const rightChecks = (await metricSum(running, 'etg_service_pin_checks_total', ['outcome="right"'])) ?? 0;
      assert.ok(checked !== null && checked + rightChecks <= 5, `PINs checked against the account: ${checked} wrong, ${rightChecks} right`);
      assert.ok(journalled(running, 'service.denied').length < 20, 'the burst cannot fill the journal with a refusal per guess');

      // The burst is a security event: journalled as a fault, on /metrics.
      const raised = journalled<{ kind: string }>(running, 'tilt.raise').filter((t) => t.kind === 'service-sign-in-burst');
      assert.equal(raised.length, 1, 'the burst is journalled once');
      assert.equal(await metric(running, 'etg_faults_active{kind="service-sign-in-burst"}'), 1);
      // Refused at the lock, with no PIN checked; counted on /metrics though not each journalled (issue 50: no table-wide limit refuses a PIN).
      assert.ok(((await metricSum(running, 'etg_service_sign_in_refused_total', ['reason="locked"'])) ?? 0) > 100, 'refusals counted on /metrics');
      await Promise.all(screens.map((s) => s.close()));

      // 14 minutes on, the right PIN is still refused; after 15, it opens.
      clock.advance(14 * 60_000);
      const early = await serviceScreen(running);
      const refused = await early.act({ name: 'service-sign-in', staff: TECH.staff, pin: TECH.pin }, 'the right PIN 14 minutes on');
      assert.notEqual(refused.state?.signedIn, true);
      assert.equal(refused.state?.notice?.key, 'service.signIn.locked', JSON.stringify(refused));
      await early.close();
      clock.advance(LOCK_MS - 14 * 60_000 + 1000);
      const later = await serviceScreen(running);
      const s = await signIn(later, TECH);
      // The technician sees the fault on the service page.
      assert.ok(s.page?.page === 'status' && (s.page.tilts ?? []).some((t) => t.kind === 'service-sign-in-burst'), JSON.stringify(s.page));
      await later.close();
    } finally {
      await stopServiceHost(running, dir);
    }
  });

  it('one screen trying one PIN on each of 30 staff numbers is stopped after a few, and the burst is journalled', async () => {
    const dir = await folderWithAccounts();
    const running = await startServiceHost(dir);
    try {
      const screen = await serviceScreen(running);
      const startedAt = Date.now();
      let taken = 0;
      for (let i = 0; i < 30; i++) {
        const r = await screen.act({ name: 'service-sign-in', staff: String(2000 + i), pin: '104729' }, `staff ${2000 + i}`);
        if (r.reply.type === 'ack') taken++;
        else assert.equal(r.reply.messageKey, 'service.refused.rate-limited', JSON.stringify(r.reply));
      }
      // Five at once, then one per 15 s (a loaded machine takes seconds per check).
      assert.ok(taken <= 5 + Math.floor((Date.now() - startedAt) / 15_000), `${taken} of 30 tries taken from one screen`);
      assert.equal(journalled<{ kind: string }>(running, 'tilt.raise').filter((t) => t.kind === 'service-sign-in-burst').length, 1);
      await screen.close();
    } finally {
      await stopServiceHost(running, dir);
    }
  });
});
