// A screen's reconnects to its host. Before: the waits started over at every snapshot, and had no
// jitter. A host that sent the snapshot and cut (overloaded, cutting screens at their send cap, or
// restarting over and over) was reconnected to after 1 s every time, a whole snapshot a second;
// and a stadium's screens, which lose their table at the same instant when it restarts, came back
// at the same instants, each a TLS handshake at the table through its station agent. Now the waits
// start over only after a link that held 30 s from its snapshot, and the upper half of each is
// random. The waits are read from the timers the link sets (never run by time).
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import type { Transport } from '../connection/transport-contract.js';
import { RECONNECT_HELD_MS } from '../connection/reconnects.js';
import { stationSnapshot } from '../connection/test-snapshot.js';
import { encode, protocolError } from '../../../protocol/index.js';
import { HostLink, type HostLinkDeps } from './host-link.js';

const SNAPSHOT = stationSnapshot(1);

/** A host the test plays: each link it takes answers with a snapshot when told, and is cut when told. */
function playedHost() {
  const links: { snapshot(): void; cut(): void; message(data: string): void }[] = [];
  const connect = (): Promise<Transport> => {
    let message: (data: unknown) => void = () => {};
    let close: () => void = () => {};
    links.push({ snapshot: () => message(SNAPSHOT), cut: () => close(), message: (data) => message(data) });
    return Promise.resolve({
      send: () => {},
      onMessage: (h) => void (message = h),
      onClose: (h) => void (close = h),
      close: () => {},
    });
  };
  return { links, connect };
}

/** The link's retry timers, kept for the test to run; their waits. */
function heldTimers() {
  const armed: { fn: () => void; ms: number }[] = [];
  mock.method(globalThis, 'setTimeout', (fn: () => void, ms: number) => {
    armed.push({ fn, ms });
    return 0;
  });
  return armed;
}

function link(connect: () => Promise<Transport>, now: () => number, random: () => number): HostLink {
  const deps: HostLinkDeps = {
    launch: { view: 'station/2', token: 't', connect, several: null },
    shown: { setStatus: () => {} } as unknown as HostLinkDeps['shown'],
    frames: { request: () => {} } as unknown as HostLinkDeps['frames'],
    emit: () => {},
    snapshot: () => {},
    reconnects: { now, random },
  };
  return new HostLink(deps);
}

const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

describe("a screen's reconnects to its host", () => {
  it('a host that sends the snapshot and cuts: each wait longer, to the cap (before: 1 s each); a link that held starts over', async () => {
    const armed = heldTimers();
    try {
      let clock = 0;
      const host = playedHost();
      await link(
        host.connect,
        () => clock,
        () => 0.999_999,
      ).connect();
      const waits: number[] = [];
      for (let i = 0; i < 6; i++) {
        const l = host.links.at(-1) ?? assert.fail('no link');
        l.snapshot();
        clock += 5_000;
        l.cut();
        const t = armed.shift() ?? assert.fail('no reconnect armed');
        waits.push(t.ms);
        t.fn();
        await settle();
      }
      assert.deepEqual(waits, [999, 1999, 3999, 7999, 9999, 9999]);
      const l = host.links.at(-1) ?? assert.fail('no link');
      l.snapshot();
      clock += RECONNECT_HELD_MS;
      l.cut();
      assert.equal(armed.shift()?.ms, 999, 'a link that held 30 s: the first wait again');
    } finally {
      mock.restoreAll();
    }
  });

  it('250 screens that lost their table at once come back spread over the upper half of the wait (before: all at 1 s)', async () => {
    const armed = heldTimers();
    try {
      for (let i = 0; i < 250; i++) {
        const host = playedHost();
        await link(host.connect, () => 0, Math.random).connect();
        host.links[0]?.snapshot();
        host.links[0]?.cut();
      }
      const waits = armed.map((t) => t.ms);
      assert.equal(waits.length, 250);
      assert.ok(
        waits.every((ms) => ms >= 500 && ms <= 1000),
        'each within the upper half of 1 s',
      );
      assert.ok(new Set(waits).size > 100, `spread: ${new Set(waits).size} distinct waits of 250`);
    } finally {
      mock.restoreAll();
    }
  });

  // A command the host could not handle (its journal refused the write: a full disk) is answered
  // `internal`. Before, the screen said nothing: the emitted event only, the player's tap gone
  // without a word, as if the bet had been taken.
  it("a command the host could not handle is said (the catalogue's errors.internal), not dropped in silence", async () => {
    const said: (string | null)[] = [];
    const host = playedHost();
    const deps: HostLinkDeps = {
      launch: { view: 'station/2', token: 't', connect: host.connect, several: null },
      shown: { setStatus: (key: string | null) => void said.push(key) } as unknown as HostLinkDeps['shown'],
      frames: { request: () => {} } as unknown as HostLinkDeps['frames'],
      emit: () => {},
      snapshot: () => {},
    };
    const armed = heldTimers();
    try {
      await new HostLink(deps).connect();
      const l = host.links[0] ?? assert.fail('no link');
      l.snapshot();
      l.message(encode(protocolError('internal', 'the host could not handle this message', { ref: 'c1' })));
      assert.deepEqual(said, ['errors.internal']);
      assert.equal(armed.length, 1, "the banner's own timer clears it");
    } finally {
      mock.restoreAll();
    }
  });

  // An edge that could not make a station's own part from its patches (own-chain.ts) sends the
  // screen `internal` with no `ref`: no tap is behind it, the part comes whole again by itself.
  // Before (a review, 8 December) the screen said errors.internal ("call an attendant") for it.
  it('an `internal` that answers no message of the screen (no ref) is not said', async () => {
    const said: (string | null)[] = [];
    const host = playedHost();
    const deps: HostLinkDeps = {
      launch: { view: 'station/2', token: 't', connect: host.connect, several: null },
      shown: { setStatus: (key: string | null) => void said.push(key) } as unknown as HostLinkDeps['shown'],
      frames: { request: () => {} } as unknown as HostLinkDeps['frames'],
      emit: () => {},
      snapshot: () => {},
    };
    const armed = heldTimers();
    try {
      await new HostLink(deps).connect();
      const l = host.links[0] ?? assert.fail('no link');
      l.snapshot();
      l.message(encode(protocolError('internal', 'this part is on its way whole again')));
      assert.deepEqual(said, [], 'a banner for no tap');
      assert.equal(armed.length, 0);
      l.message(encode(protocolError('internal', 'the edge could not handle this message', { ref: 'c2' })));
      assert.deepEqual(said, ['errors.internal'], 'an answer to a message is still said');
    } finally {
      mock.restoreAll();
    }
  });
});
