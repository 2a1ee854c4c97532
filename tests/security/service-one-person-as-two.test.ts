// Issue 27, "One person as two": a supervisor opened 20 sessions, started a meter clear in each and
// confirmed all 20 as a technician with guessed PINs; on the host as it stood every guess was
// checked at once and the one that matched cleared the meters, journalled with both names. Here
// the supervisor's guess list holds the technician's PIN (last), and the supervisor also tries to
// confirm with their own staff number and PIN from every session.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AccountStore } from '../../host/service/accounts.js';
import type { ServiceAction } from '../../protocol/index.js';
import { folderWithAccounts, journalled, metricSum, serviceScreen, signIn, skewedClock, startServiceHost, stopServiceHost, SUP, TECH } from './service-kit.js';

const CLEAR: ServiceAction = { kind: 'meter-clear', scope: 'station:1', authorisation: 'DICJ-2026/27', reason: 'attack test' };

describe('one person as two (issue 27)', () => {
  it('one supervisor with 20 sessions cannot complete a two-person action: guessed confirmations check at most 5 PINs, their own are refused', async () => {
    const clock = skewedClock();
    const dir = await folderWithAccounts();
    const running = await startServiceHost(dir, clock.timers);
    try {
      const sessions = [];
      for (let i = 0; i < 20; i++) {
        const s = await serviceScreen(running);
        await signIn(s, SUP);
        const started = await s.act({ name: 'service-action', action: CLEAR }, `meter clear ${i}`);
        assert.ok(started.state?.confirm, `session ${i} waits for a second person`);
        sessions.push(s);
      }
      // 19 guesses at once as the technician, one per session, then the technician's real PIN.
      // The last session opened is the one whose request is youngest (a request waits 2 minutes).
      const last = sessions.at(-1);
      const rest = sessions.slice(0, -1);
      assert.ok(last);
      const replies = await Promise.all(rest.map((s, i) => s.send({ name: 'service-confirm', staff: TECH.staff, pin: String(200_000 + i) })));
      const right = await last.act({ name: 'service-confirm', staff: TECH.staff, pin: TECH.pin }, 'the guess that matches');
      await Promise.all(rest.map((s, i) => (replies[i]?.type === 'ack' ? s.until((x) => x.busy !== true && x.notice !== null, `guess ${i}`) : null)));
      assert.notEqual(right.state?.notice?.key, 'service.done.meterClear', JSON.stringify(right.state?.notice));

      // From every session, the supervisor as their own second person.
      for (const s of sessions) {
        const own = await s.act({ name: 'service-confirm', staff: SUP.staff, pin: SUP.pin }, 'own confirmation');
        assert.ok(
          own.reply.type === 'error' ? own.reply.messageKey === 'service.refused.rate-limited' : own.state?.notice?.key === 'service.confirm.samePerson',
          JSON.stringify(own),
        );
      }

      assert.deepEqual(journalled(running, 'meter.clear'), [], 'no meter was cleared');
      assert.deepEqual(
        journalled<{ action: string }>(running, 'service.action').filter((a) => a.action === 'meter-clear'),
        [],
      );
      const wrong = (await metricSum(running, 'etg_service_pin_checks_total', ['outcome="wrong"'])) ?? Infinity;
      assert.ok(wrong <= 5, `technician PINs checked: ${wrong}`);
      const store = new AccountStore(dir);
      try {
        assert.ok(store.find(TECH.staff)?.lockedUntil, 'the technician is locked');
      } finally {
        store.close();
      }

      // The technician, once the lock is over, is a second person like any other: a sign-in of their own.
      clock.advance(16 * 60_000);
      const done = await last.act({ name: 'service-confirm', staff: TECH.staff, pin: TECH.pin }, 'the technician confirms');
      assert.equal(done.state?.notice?.key, 'service.done.meterClear', JSON.stringify(done));
      const [clear] = journalled<{ who: string }>(running, 'meter.clear');
      assert.equal(clear?.who, `${SUP.name} (${SUP.staff}) / ${TECH.name} (${TECH.staff})`, 'one entry names both');
      const enters = journalled<{ staff: string }>(running, 'service.enter').filter((e) => e.staff === TECH.staff);
      assert.equal(enters.length, 1, "the confirmation is the technician's own session");
      const exits = journalled<{ staff: string; reason: string; enterSeq: number }>(running, 'service.exit').filter((e) => e.staff === TECH.staff);
      assert.deepEqual(
        exits.map((e) => [e.reason, e.enterSeq]),
        [['confirmed', enters[0]?.seq]],
      );
      await Promise.all(sessions.map((s) => s.close()));
    } finally {
      await stopServiceHost(running, dir);
    }
  });
});
