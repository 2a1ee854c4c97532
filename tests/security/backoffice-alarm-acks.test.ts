// An alarm's acknowledgements are appended, never replaced (upstream/backoffice/alarm-acks.ts), and
// every list of alarms carries each one's whole list. A signed-in user (or a few, or a stolen
// cookie) posting at one alarm grew its list without bound: each note up to 1,000 characters, 1,200
// requests a minute, and every alarms page and table page of every user read all of them. An alarm
// takes at most ALARM_ACKS_MAX; a further one is refused (409) and changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ALARM_ACKS_MAX } from '../../upstream/backoffice/alarm-acks.js';
import { backofficeKit, post, signIn, type BackofficeKit, type SignedIn } from './backoffice-kit.js';

describe('acknowledgements of one alarm', () => {
  let kit: BackofficeKit;
  let supervisor: SignedIn;
  let administrator: SignedIn;
  let flooded = 0;
  let other = 0;
  before(async () => {
    kit = await backofficeKit();
    supervisor = await signIn(kit.app, 'supervisor');
    administrator = await signIn(kit.app, 'administrator');
    const raise = async () =>
      Number((await kit.db.query<{ id: number }>(`INSERT INTO alarms (terminal_id, kind, detail) VALUES ('T1', 'divergence', '{}') RETURNING id`)).rows[0]?.id);
    flooded = await raise();
    other = await raise();
  });
  after(() => kit.close());

  const acks = async (id: number) =>
    (await kit.db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM alarm_acks WHERE alarm_id = $1', [id])).rows[0]?.n ?? -1;

  it('are at most ALARM_ACKS_MAX however many users post them, in parallel too', async () => {
    assert.ok(ALARM_ACKS_MAX >= 10 && ALARM_ACKS_MAX <= 100, String(ALARM_ACKS_MAX));
    const note = 'n'.repeat(1000);
    const sent = await Promise.all(
      Array.from({ length: ALARM_ACKS_MAX + 30 }, (_, i) =>
        post(kit.app, i % 2 ? supervisor : administrator, `/backoffice/api/alarms/${flooded}/acknowledge`, { note }),
      ),
    );
    const codes = sent.map((r) => r.statusCode);
    assert.equal(codes.filter((c) => c === 200).length, ALARM_ACKS_MAX, JSON.stringify(codes));
    assert.equal(codes.filter((c) => c === 409).length, 30, JSON.stringify(codes));
    assert.equal(sent.find((r) => r.statusCode === 409)?.json().error, 'acks-full');
    assert.equal(await acks(flooded), ALARM_ACKS_MAX);
    const listed = await kit.app.inject({ method: 'GET', url: '/backoffice/api/alarms', headers: { cookie: supervisor.cookie } });
    const alarm = (listed.json() as { id: number; acks: unknown[] }[]).find((a) => a.id === flooded);
    assert.equal(alarm?.acks.length, ALARM_ACKS_MAX);
  });

  it('leave every other alarm its own acknowledgements (the control)', async () => {
    const r = await post(kit.app, supervisor, `/backoffice/api/alarms/${other}/acknowledge`, { note: 'looked at it' });
    assert.equal(r.statusCode, 200, r.body);
    assert.equal(await acks(other), 1);
  });
});
