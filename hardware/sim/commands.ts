// A small line-based command language to drive a simulator by hand or from a test rig
// (`npm run devices -- simulate …` reads it on stdin and on its --control port).
import type { BillAcceptorSimControls, BillStep, WireFault } from '../billacceptor/sim-controls.js';
import { isCardCode } from '../shoe/card-code.js';
import type { ShoeSimControls } from '../shoe/types.js';

export const BILL_COMMANDS = `insert <value> [reject]   a note is inserted (e.g. insert 100)
jam [acceptor|stacker]    a note jams
full | remove | replace   stacker full / removed / put back
cheat | fail [code]       fraud attempt / device failure
clear                     the technician clears the fault
power-cut [step] [ms]     cut power now or after a step (accepting escrow stacking stacking-late credit stacked), restore after ms
power-on                  restore power
wire <garble|truncate|drop|noise> [n]   damage the next n replies
drop                      drop the host connection
status                    show the simulator state`;

export const SHOE_COMMANDS = `load [decks] [seed]       load a shuffled shoe
draw [CARD]               the dealer draws the next card (or CARD, e.g. AS)
unreadable | duplicate    an unreadable card / the previous value again
wrong-deck [CARD]         a card from another deck set
burn on|off               dealer burn button
lid open|close            lid sensor
alarm <code> <text>       raise an alarm
repeat                    resend the last event frame (same sequence)
wire <garble|truncate|drop|noise> [n]   damage the next n frames
power-cut [ms] | power-on
drop                      drop the host connection
status                    show the simulator state`;

const STEPS: readonly BillStep[] = ['accepting', 'escrow', 'stacking', 'stacking-late', 'credit', 'stacked'];
const WIRE: readonly WireFault[] = ['garble', 'truncate', 'drop', 'noise'];

export interface CommandContext {
  dropClient?: () => void;
}

function num(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

/** Runs one command line against a bill-acceptor simulator; returns the reply line. */
export function runBillCommand(sim: BillAcceptorSimControls, line: string, ctx: CommandContext = {}): string {
  const [cmd, ...args] = line.trim().split(/\s+/);
  switch (cmd) {
    case 'insert': {
      const v = num(args[0]);
      if (v === undefined) return 'error: insert <value>';
      sim.insertNote(v, args[1] === 'reject' ? { reject: 0x72 } : {});
      return `ok inserted ${v}`;
    }
    case 'jam':
      sim.faults.jam(args[0] === 'stacker' ? 'stacker' : 'acceptor');
      return 'ok jam';
    case 'full':
      sim.faults.stackerFull();
      return 'ok stacker full';
    case 'remove':
      sim.faults.removeStacker();
      return 'ok stacker removed';
    case 'replace':
      sim.faults.replaceStacker();
      return 'ok stacker replaced';
    case 'cheat':
      sim.faults.cheat();
      return 'ok cheat';
    case 'fail':
      sim.faults.fail(num(args[0]));
      return 'ok failure';
    case 'clear':
      sim.faults.clear();
      return 'ok cleared';
    case 'power-cut': {
      const at = STEPS.find((s) => s === args[0]);
      const ms = num(at ? args[1] : args[0]);
      sim.powerCut({ ...(at ? { at } : {}), ...(ms !== undefined ? { restoreAfterMs: ms } : {}) });
      return at ? `ok power cut armed after ${at}` : 'ok power cut';
    }
    case 'power-on':
      sim.powerOn();
      return 'ok power on';
    case 'wire': {
      const k = WIRE.find((w) => w === args[0]);
      if (!k) return 'error: wire garble|truncate|drop|noise [n]';
      sim.wireFault(k, num(args[1]) ?? 1);
      return `ok wire ${k}`;
    }
    case 'drop':
      ctx.dropClient?.();
      return 'ok dropped';
    case 'status':
      return `ok powered=${sim.powered} cashbox=[${sim.cashbox.join(',')}] returned=[${sim.returned.join(',')}] jammed=[${sim.jammed.join(',')}]`;
    case 'help':
    case undefined:
    case '':
      return BILL_COMMANDS;
    default:
      return `error: unknown command "${cmd}" (try help)`;
  }
}

/** Runs one command line against a shoe simulator; returns the reply line. */
export function runShoeCommand(sim: ShoeSimControls, line: string, ctx: CommandContext = {}): string {
  const [cmd, ...args] = line.trim().split(/\s+/);
  switch (cmd) {
    case 'load': {
      const decks = num(args[0]);
      const seed = num(args[1]);
      sim.loadShoe({ ...(decks ? { decks } : {}), ...(seed !== undefined ? { seed } : {}) });
      return 'ok shoe loaded';
    }
    case 'draw': {
      const forced = args[0]?.toUpperCase();
      if (forced && !isCardCode(forced)) return 'error: draw [CARD] with CARD like AS, TD';
      const c = sim.drawCard(forced && isCardCode(forced) ? { card: forced } : {});
      return c ? `ok drew ${c}` : 'error: nothing drawn (shoe locked, empty or not loaded)';
    }
    case 'unreadable':
      return sim.faults.drawUnreadable(num(args[0]) ?? 1) ? 'ok unreadable' : 'error: nothing drawn (shoe locked, off, empty or not loaded)';
    case 'duplicate':
      sim.faults.drawDuplicate();
      return 'ok duplicate';
    case 'wrong-deck': {
      const c = args[0]?.toUpperCase();
      sim.faults.drawWrongDeck(c && isCardCode(c) ? c : undefined);
      return 'ok wrong-deck card';
    }
    case 'burn':
      sim.pressBurn(args[0] !== 'off');
      return `ok burn ${args[0] !== 'off' ? 'on' : 'off'}`;
    case 'lid':
      if (args[0] === 'open') sim.faults.openLid();
      else sim.faults.closeLid();
      return `ok lid ${args[0] === 'open' ? 'open' : 'closed'}`;
    case 'alarm':
      sim.faults.alarm(num(args[0]) ?? 1, args.slice(1).join(' ') || 'alarm');
      return 'ok alarm';
    case 'repeat':
      sim.faults.repeatLastFrame();
      return 'ok repeated';
    case 'wire': {
      const k = WIRE.find((w) => w === args[0]);
      if (!k) return 'error: wire garble|truncate|drop|noise [n]';
      sim.wireFault(k, num(args[1]) ?? 1);
      return `ok wire ${k}`;
    }
    case 'power-cut':
      sim.powerCut(num(args[0]));
      return 'ok power cut';
    case 'power-on':
      sim.powerOn();
      return 'ok power on';
    case 'drop':
      ctx.dropClient?.();
      return 'ok dropped';
    case 'status':
      return `ok dealt=${sim.dealt} locked=${sim.locked} burn=${sim.burnMode} lid=${sim.lidOpen ? 'open' : 'closed'} unacked=[${sim.unacked.join(',')}]`;
    case 'help':
    case undefined:
    case '':
      return SHOE_COMMANDS;
    default:
      return `error: unknown command "${cmd}" (try help)`;
  }
}
