// A screen's copy of a station view, fed by a host that sends each part whole once and then as
// patches, through a relay that loses, repeats, reorders and alters what passes: the screen never
// draws a view that fails its schema, asks for what it lost, and ends with the host's view.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decodeHostMessage, encode } from './codec.js';
import { ViewComposer } from './compose.js';
import type { HostMessage, PartName } from './messages.js';
import { diffParts } from './patch.js';
import type { CardFace, RoundView } from './round.js';
import { StationState, stationView, type StationOwnState, type ViewState } from './views.js';

const VIEW = stationView(137);
const roundOf = (v: ViewState | null) => (v?.kind === 'station' ? v.round : undefined);
const CARDS: CardFace[] = ['AS', 'TD', '9H', '2C', '7S', 'KD', '5C', '3H'];

/** The public round at step `i`: coups of a betting window, four to six cards, the result. */
function roundAt(i: number): RoundView {
  const coup = Math.floor(i / 9);
  const k = i % 9;
  const dealt = Math.max(0, Math.min(6, k - 1));
  const cards = CARDS.slice(coup % 3, (coup % 3) + dealt);
  const player = cards.filter((_, j) => j % 2 === 0);
  const banker = cards.filter((_, j) => j % 2 === 1);
  return {
    roundId: `r${coup}`,
    phase: k === 0 ? 'betting' : k < 8 ? 'dealing' : 'results',
    endsAt: k === 0 ? 1_000_000 + coup : null,
    cue: k > 0 && k < 7 ? { kind: 'card', to: k % 2 === 1 ? 'player' : 'banker' } : null,
    hands: [
      { owner: 'player', cards: player, total: player.length % 10 },
      { owner: 'banker', cards: banker, total: banker.length % 10 },
    ],
    results: k === 8 ? [{ seat: 1, bet: 'banker', stake: 10_000, net: 9_500, rule: 'macau-commission art.4', owner: 'seat' }] : null,
    hold: null,
  };
}

/** The station's own part at step `i`: its credit, its chips, its window. */
function ownAt(i: number): StationOwnState {
  const open = i % 9 === 0;
  return {
    kind: 'station',
    station: 137,
    game: 'baccarat',
    currency: 'MOP',
    limits: { min: 10_000, max: 500_000 },
    language: 'pt',
    credit: 1_000_000 - 10_000 * (i % 7),
    betting: { open, spots: [{ bet: 'banker', min: 10_000, max: 500_000 }], bets: i % 3 === 0 ? [] : [{ bet: 'banker', amount: 10_000 * (i % 3) }] },
    decision: null,
    recalled: { rounds: Math.min(3, Math.floor(i / 9)), version: Math.floor(i / 9) },
  };
}

/**
 * A host as the hub and a connection's outbox are: each part's versions, a patch from the one
 * before where it is smaller, the whole part on subscribe and when asked for (`resync`).
 */
class FakeHost {
  version = { own: 1, round: 1 };
  private written = new Map<PartName, number>();
  private step = 0;
  constructor(private readonly out: (m: HostMessage) => void) {}

  subscribe(): void {
    this.whole('round');
    this.whole('own');
  }

  /** The next change of both parts, each as a patch to the version the screen was last sent or whole. */
  next(): void {
    const before = { own: ownAt(this.step), round: roundAt(this.step) };
    this.step++;
    for (const part of ['round', 'own'] as const) {
      const after = part === 'own' ? ownAt(this.step) : roundAt(this.step);
      const ops = diffParts(before[part] ?? {}, after ?? {});
      if (ops.length === 0) continue;
      const version = ++this.version[part];
      if (this.written.get(part) !== version - 1) this.whole(part);
      else if (part === 'own') this.send(part, { type: 'patch', view: VIEW, version, ops });
      else this.send(part, { type: 'public-patch', part: 'round', version, ops });
    }
  }

  whole(part: 'own' | 'round'): void {
    if (part === 'own') this.send(part, { type: 'snapshot', view: VIEW, version: this.version.own, state: ownAt(this.step) });
    else this.send(part, { type: 'public', part: 'round', version: this.version.round, state: roundAt(this.step) });
  }

  resync(parts: PartName[]): void {
    for (const p of parts) if (p === 'own' || p === 'round') this.whole(p);
  }

  /** What the screen should show now. */
  view(): StationState {
    return { ...ownAt(this.step), round: roundAt(this.step) };
  }

  private send(part: PartName, m: HostMessage): void {
    this.written.set(part, m.type === 'snapshot' || m.type === 'public' || m.type === 'patch' || m.type === 'public-patch' ? m.version : -1);
    // Through the wire's encoding, as a screen receives it.
    const d = decodeHostMessage(encode(m));
    assert.ok(d.ok, `the host sent a message that fails its schema: ${encode(m)}`);
    this.out(d.message);
  }
}

describe('a screen composing a station view from whole parts and patches', () => {
  it('follows an honest host with patches alone after the first whole parts, and asks for nothing', () => {
    let clock = 0;
    const asked: PartName[][] = [];
    const screen = new ViewComposer(VIEW, { resync: (p) => asked.push(p), now: () => clock });
    const seen: HostMessage['type'][] = [];
    const host = new FakeHost((m) => {
      seen.push(m.type);
      screen.take(m);
    });
    host.subscribe();
    for (let i = 0; i < 40; i++) {
      host.next();
      clock += 100;
      assert.deepEqual(screen.latest(), host.view(), `step ${i}`);
    }
    assert.deepEqual(asked, []);
    assert.deepEqual(seen.slice(0, 2), ['public', 'snapshot']);
    assert.ok(
      seen.slice(2).every((t) => t === 'patch' || t === 'public-patch'),
      'nothing whole after the subscription',
    );
    assert.equal(screen.version(), host.version.own, 'commands name the own part’s version');
  });

  it('asks once for a part whose patch was lost, ignores what does not follow meanwhile, and is whole again once it comes', () => {
    let clock = 0;
    const asked: PartName[][] = [];
    const screen = new ViewComposer(VIEW, { resync: (p) => asked.push(p), now: () => clock, retryMs: 1000 });
    let drop = false;
    const host = new FakeHost((m) => {
      if (drop && m.type === 'public-patch') return;
      screen.take(m);
    });
    host.subscribe();
    host.next();
    drop = true;
    host.next();
    drop = false;
    const stuck = screen.latest();
    host.next();
    host.next();
    assert.deepEqual(asked, [['round']], 'asked once, within the retry time');
    assert.notDeepEqual(roundOf(screen.latest()), host.view().round);
    assert.deepEqual(roundOf(screen.latest()), roundOf(stuck), 'the round stays where it was: nothing that does not follow is applied');
    assert.deepEqual(screen.waiting(), ['round']);
    clock += 1000;
    host.next();
    assert.deepEqual(asked, [['round'], ['round']], 'asked again once the retry time is out');
    host.resync(['round']);
    assert.deepEqual(screen.latest(), host.view());
    assert.deepEqual(screen.waiting(), []);
    host.next();
    assert.deepEqual(screen.latest(), host.view(), 'and follows the patches again');
  });

  it('takes the whole part it asked for even when a forged version put it ahead (a relay cannot wedge it)', () => {
    let clock = 0;
    const screen = new ViewComposer(VIEW, { resync: () => undefined, now: () => clock });
    const host = new FakeHost((m) => screen.take(m));
    host.subscribe();
    // A whole round from the future, as a hostile relay might send.
    screen.take({ type: 'public', part: 'round', version: 1_000_000, state: null });
    host.next();
    assert.equal(roundOf(screen.latest()), null, 'the forged part is held: the host’s patch does not follow it');
    clock += 5000;
    host.resync(['round']);
    assert.deepEqual(roundOf(screen.latest()), host.view().round, 'the part asked for is taken whatever its version');
  });

  it('through a relay that loses, repeats, reorders and alters messages, never draws a view outside the schema and ends with the host’s (property, 100 relays)', () => {
    type Harm = 'pass' | 'drop' | 'repeat' | 'hold' | 'forge-version' | 'garble-ops' | 'garble-state';
    const harm = fc.constantFrom<Harm>('pass', 'pass', 'pass', 'drop', 'repeat', 'hold', 'forge-version', 'garble-ops', 'garble-state');
    fc.assert(
      fc.property(fc.array(harm, { minLength: 20, maxLength: 120 }), fc.integer({ min: 1, max: 1e6 }), (harms, forged) => {
        let clock = 0;
        let honest = false;
        let k = 0;
        let held: HostMessage | null = null;
        const asks: PartName[][] = [];
        const screen = new ViewComposer(VIEW, { resync: (p) => asks.push(p), now: () => clock });
        const deliver = (m: HostMessage) => {
          screen.take(m);
          const v = screen.latest();
          if (v) assert.ok(StationState.safeParse(v).success, 'the view drawn fits its schema');
        };
        const host = new FakeHost((m) => {
          if (honest) return deliver(m);
          const h = harms[k++ % harms.length] as Harm;
          if (h === 'drop') return;
          if (h === 'repeat') return (deliver(m), deliver(m));
          if (h === 'hold') {
            // Sent after the next one: out of order.
            const before = held;
            held = m;
            if (before) deliver(before);
            return;
          }
          if (h === 'forge-version' && 'version' in m) return deliver({ ...m, version: forged });
          if (h === 'garble-ops' && (m.type === 'patch' || m.type === 'public-patch'))
            return deliver({ ...m, ops: [['set', ['hands', 0, 'cards', 0], 42]], version: m.version });
          if (h === 'garble-state' && m.type === 'patch') return deliver({ ...m, ops: [['set', ['credit'], -5]] });
          deliver(m);
        });
        host.subscribe();
        for (let i = 0; i < 30; i++) {
          host.next();
          clock += 150;
          // The host answers what the screen asked for; the relay may lose the answer too.
          for (const parts of asks.splice(0)) host.resync(parts);
        }
        // The relay turns honest: the next change, and the answers to what is asked then.
        honest = true;
        clock += 5000;
        host.next();
        for (let round = 0; round < 3 && asks.length > 0; round++) for (const parts of asks.splice(0)) host.resync(parts);
        assert.deepEqual(screen.latest(), host.view());
      }),
      { numRuns: 100 },
    );
  });
});

describe('a station screen and its recall (protocol 5: asked for, not pushed)', () => {
  const rounds = (n: number) =>
    Array.from({ length: n }, (_, j) => ({
      roundId: `r${n - 1 - j}`,
      ts: '2026-01-01T00:00:00.000Z',
      status: 'settled' as const,
      cards: [{ card: 'AS' as const, to: 'player' as const }],
      bets: [],
      lines: [],
      creditBefore: 0,
      creditAfter: 0,
    }));
  const own = (version: number, rounds: number): HostMessage => ({
    type: 'snapshot',
    view: VIEW,
    version,
    state: { ...ownAt(0), recalled: { rounds, version } },
  });
  const recallOf = (v: ViewState | null) => (v?.kind === 'station' ? v.recall : undefined);

  it('asks for nothing while no panel shows it, asks once a panel opens, and shows only the version the own part names', () => {
    let t = 0;
    const asked: PartName[][] = [];
    const c = new ViewComposer(VIEW, { resync: (p) => asked.push(p), now: () => t });
    c.take(own(1, 2));
    assert.deepEqual(asked, [], 'not asked for while no panel shows it');
    c.want(true);
    assert.deepEqual(asked, [['recall']]);
    assert.equal(recallOf(c.latest()), undefined, 'not shown before it came');
    const got = c.take({ type: 'recall', view: VIEW, version: 1, rounds: rounds(2) });
    assert.deepEqual(recallOf(got?.state ?? null), rounds(2), 'shown once it came');
    // A round settles while the panel is open: the own part names a newer version, which is asked for.
    c.take(own(2, 3));
    assert.equal(recallOf(c.latest()), undefined, 'the outdated list is never shown');
    assert.deepEqual(asked, [['recall'], ['recall']]);
    c.take({ type: 'recall', view: VIEW, version: 2, rounds: rounds(3) });
    assert.equal(recallOf(c.latest())?.length, 3);
    // Closed: a newer version is not asked for.
    c.want(false);
    c.take(own(3, 4));
    t += 5_000;
    c.take(own(3, 4));
    assert.equal(asked.length, 2);
  });

  it('asks again for a recall that was lost on the way (after retryMs), and ignores one for another view or that fails its schema', () => {
    let t = 0;
    const asked: PartName[][] = [];
    const c = new ViewComposer(VIEW, { resync: (p) => asked.push(p), now: () => t, retryMs: 1000 });
    c.take(own(1, 2));
    c.want(true);
    // Lost: the screen keeps on receiving other parts, and asks again once a second has passed.
    t += 500;
    c.take(own(1, 2));
    assert.equal(asked.length, 1, 'not asked again within retryMs');
    t += 600;
    c.take({ type: 'public', part: 'round', version: 1, state: roundAt(1) });
    assert.equal(asked.length, 2, 'asked again');
    assert.equal(c.take({ type: 'recall', view: stationView(138), version: 1, rounds: rounds(2) }), null, 'another view’s recall is not taken');
    const forged = decodeHostMessage(JSON.stringify({ type: 'recall', view: VIEW, version: 1, rounds: [{ roundId: 'x' }] }));
    assert.equal(forged.ok, false, 'a recall outside its schema is refused at the codec');
    assert.equal(recallOf(c.latest()), undefined);
    c.take({ type: 'recall', view: VIEW, version: 1, rounds: rounds(2) });
    assert.equal(recallOf(c.latest())?.length, 2);
    assert.deepEqual(c.waiting(), []);
  });
});
