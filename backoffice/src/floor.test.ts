import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { FloorView } from './floor.js';
import { words } from './i18n.js';
import { StubElement, useStubDocument } from './stub-document.js';

useStubDocument();

/** An EventSource that the test drives: each event goes to its listeners as the browser's would. */
class FakeSource {
  static last: FakeSource | undefined;
  private readonly listeners = new Map<string, ((e: { data?: string }) => void)[]>();
  constructor(readonly url: string) {
    FakeSource.last = this;
  }
  addEventListener(kind: string, f: (e: { data?: string }) => void): void {
    this.listeners.set(kind, [...(this.listeners.get(kind) ?? []), f]);
  }
  close(): void {}
  fire(kind: string, data?: string): void {
    for (const f of this.listeners.get(kind) ?? []) f({ data });
  }
}

const row = (terminalId: string) => ({
  terminalId,
  tableId: null,
  game: 'blackjack',
  currency: { code: 'MOP', exponent: 2 },
  profile: null,
  lastRound: null,
  state: 'betting',
  hold: false,
  faults: [],
  occupied: 0,
  stations: 0,
  lastSeenAt: null,
  lagEntries: null,
  lagSeconds: null,
  headSeq: 1,
  openAlarms: 0,
  unacknowledged: 0,
  configWaiting: 0,
});

/** Every element of `el` (itself included) whose `tag` it is. */
const all = (el: unknown, tag: string): StubElement[] =>
  el instanceof StubElement ? [...(el.tag === tag ? [el] : []), ...el.children.flatMap((c) => all(c, tag))] : [];

// The floor's stream is read with zod (api.ts): an event that is no JSON, or not rows, threw inside
// the EventSource's listener. The update was lost without a word, the page still said «Live», and
// a single row the page could not read lost every other row of its update.
describe('the floor page given an event it cannot read', () => {
  const saved = (globalThis as { EventSource?: unknown }).EventSource;
  (globalThis as { EventSource?: unknown }).EventSource = FakeSource;
  after(() => ((globalThis as { EventSource?: unknown }).EventSource = saved));

  it('refuses it with a count on the page, and takes the rows it can read', () => {
    const view = new FloorView(words('en'), () => {});
    view.connect('/events');
    const source = FakeSource.last;
    assert.ok(source);
    const status = all(view.element, 'p')[0];
    const terminals = () =>
      all(view.element, 'tr')
        .map((tr) => tr.attributes.get('data-terminal'))
        .filter((t) => t !== undefined);
    source.fire('open');
    source.fire('floor', JSON.stringify([row('T1')]));
    assert.deepEqual(terminals(), ['T1']);
    assert.equal(status?.dataset.live, 'true');

    for (const [kind, data] of [
      ['rows', 'not json {'],
      ['rows', '{"terminalId":"T9"}'],
      ['floor', 'null'],
    ] as const)
      assert.doesNotThrow(() => source.fire(kind, data), `${kind} ${data}`);
    assert.deepEqual(terminals(), ['T1'], 'the rows it had are kept');
    assert.equal(status?.dataset.refused, '3');
    assert.match(String(status?.textContent), /3/);
    assert.match(String(status?.textContent), /refused/i);

    // One row it cannot read among rows it can: the others are taken.
    source.fire('rows', JSON.stringify([row('T2'), { ...row('T3'), occupied: 'many' }, row('T0')]));
    assert.deepEqual(terminals(), ['T0', 'T1', 'T2']);
    assert.equal(status?.dataset.refused, '4');
  });
});
