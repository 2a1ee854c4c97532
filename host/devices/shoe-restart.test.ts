// A card-reading shoe that restarts within the heartbeat's limit is never lost to the host: its
// next HELLO is its only word. A shoe that comes back with its gate open at betting gives cards
// out of turn (each a hold); one that comes back locked at a card cue gives none. The host reads
// the gate in each status and sets it again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { openShoe, type OpenedShoe } from '../../hardware/open.js';
import type { ShoeEvent } from '../../hardware/shoe/types.js';
import type { LiveTable } from '../table/runtime.js';
import { TableShoe } from './shoe.js';

const FAST = { replyTimeoutMs: 60, heartbeatMs: 80, retries: 3, reconnectBaseMs: 5, reconnectMaxMs: 40, usbReadTimeoutMs: 30 };

async function until(pred: () => boolean, what: string, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function rig(gateAtPowerUp: 'open' | 'locked') {
  let expectsCard = false;
  const tableListeners: (() => void)[] = [];
  const table = {
    onChange: (l: () => void) => {
      tableListeners.push(l);
      return () => undefined;
    },
    reads: { expectsCard: () => expectsCard },
  };
  let device: OpenedShoe | null = null;
  const events: ShoeEvent['type'][] = [];
  /** The gate as each status said it (locked or not), in order. */
  const statuses: boolean[] = [];
  // The fake table carries only what TableShoe reads of it.
  const shoe = new TableShoe('sim', table as unknown as LiveTable, pino({ level: 'silent' }), {
    decks: 1,
    onDeviceEvent: (e) => {
      events.push(e.type);
      if (e.type === 'status') statuses.push(e.locked);
    },
    open: (spec, options) => (device = openShoe(spec, { ...options, ...FAST, sim: { ...options.sim, retransmitMs: 40, gateAtPowerUp } })),
  });
  shoe.start();
  const sim = () => {
    const s = device?.simulator;
    if (!s) throw new Error('no simulated shoe');
    return s;
  };
  const cue = (on: boolean) => {
    expectsCard = on;
    for (const l of tableListeners) l();
  };
  return { shoe, sim, cue, events, statuses, close: () => device?.close() };
}

describe('a shoe that restarts within the heartbeat', () => {
  it('back open at betting: locked again from its status, the link never lost', async () => {
    const r = rig('open');
    try {
      await until(() => r.sim().locked, 'the gate locked for betting');
      r.sim().powerCut(60); // back long before the heartbeat gives the link up (4 × 80 ms without a frame)
      await until(() => !r.sim().powered, 'the cut');
      await until(() => r.sim().powered, 'the power back');
      await until(() => r.sim().locked, 'locked again');
      assert.equal(r.events.filter((t) => t === 'disconnected').length, 0, 'the host heard of the restart only from the status');
    } finally {
      await r.close();
    }
  });

  it('back locked at a card cue: opened again from its status, the link never lost', async () => {
    const r = rig('locked');
    try {
      await until(() => r.sim().locked, 'the gate locked for betting');
      r.cue(true);
      await until(() => r.shoe.gateOpen() && !r.sim().locked, 'the gate open for the card');
      const before = r.statuses.length;
      r.sim().powerCut(60);
      await until(() => !r.sim().powered, 'the cut');
      await until(() => r.sim().powered && r.statuses.slice(before).includes(true), 'back, its status: locked');
      await until(() => r.shoe.gateOpen() && !r.sim().locked, 'opened again');
      assert.equal(r.events.filter((t) => t === 'disconnected').length, 0);
    } finally {
      await r.close();
    }
  });
});
