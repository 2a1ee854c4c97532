import type { Logger } from 'pino';
import { cardOf } from '../../engine/cards/card.js';
import { Emitter } from '../../hardware/clock.js';
import { openShoe, type OpenedShoe } from '../../hardware/open.js';
import type { WireFrame } from '../../hardware/wire-frame.js';
import type { SequencedShoeEvent, ShoeEvent } from '../../hardware/shoe/types.js';
import type { LiveTable } from '../table/runtime.js';
import type { SampledLines } from './sampled-lines.js';

/** Corrections from the shoe's status contradicted by its next status before the status is no longer looked at. */
const STATUS_CONTRADICTIONS = 2;

export interface ShoeStatus {
  spec: string;
  state: 'connecting' | 'ready' | 'disconnected' | 'alarm';
  /** The name of its last event (service mode words it); the heartbeat's status is not one. */
  lastEvent: Exclude<ShoeEvent['type'], 'status'> | null;
  lidOpen: boolean;
}

/**
 * The card-reading shoe, through the hardware layer. Every sequenced event is handled before the
 * shoe is acknowledged (the driver awaits `onEvent`), so a card is placed by the engine before
 * the shoe considers it delivered; the driver drops repeats of a sequence number.
 *
 * The shoe's gate is locked whenever the table expects no card (betting, decisions, results,
 * holds, halts, a shuffle due) and unlocked on each card cue, so that a card cannot leave the
 * shoe out of turn where the device can prevent it (issue 7). A shoe that cannot lock (a one-way
 * ASCII stream, or one that refuses the command) deals as before: a card out of turn is a hold.
 */
export class TableShoe {
  private device: OpenedShoe | null = null;
  /** The gate as the device last confirmed it: locked, open, or unknown (not yet told, link lost). */
  private gate: 'locked' | 'open' | null = null;
  /** The device did not lock when asked (cannot, or refused): asked again only after a reconnect. */
  private lockUnavailable = false;
  private gateBusy = false;
  /** A correction from the shoe's status was made and no status has agreed since. */
  private statusCorrected = false;
  /** Corrections the shoe's next status contradicted, in a row; at STATUS_CONTRADICTIONS its status is not looked at until it reconnects. */
  private statusContradicted = 0;
  private linkUp = false;
  /** Counts link changes: the answer to a command sent before the link went down or came back says nothing now. */
  private linkGeneration = 0;
  /** Emitters: a listener's error (a draw that waited on the gate) never escapes a device callback. */
  private readonly gateChanges = new Emitter<void>();
  private stopWatching: (() => void) | null = null;
  /** Card reads (readable or not) handed to the table so far: the simulated dealer waits on it. */
  cardsHandled = 0;
  /** New shoes handed to the table so far. */
  loadsHandled = 0;
  private readonly status: ShoeStatus;
  private readonly events = new Emitter<ShoeEvent>();
  /** Service mode's card test: the next card read is reported to it and never reaches the round. */
  private cardTest: ((card: string) => void) | null = null;

  constructor(
    private readonly spec: string,
    private readonly controller: LiveTable,
    private readonly log: Logger,
    private readonly options: {
      seed?: number;
      decks: number;
      /** A simulated shoe's cut card comes out after this many cards (tests: short shoes). */
      simCutCardAt?: number;
      /** The shoe's protocol (TableConfig `shoeProtocol`); default framed. */
      protocol?: 'framed' | 'ascii';
      open?: typeof openShoe;
      /** The last sequence number journalled (recovery): the driver drops what it re-reports up to it. */
      lastSequence?: number;
      onDeviceEvent?: (e: ShoeEvent) => void;
      /** The shoe's warn lines, sampled per kind (the host's SampledLog); without it, each is logged. */
      sampledLog?: SampledLines;
      /** Each card read handled (journalled before the acknowledgement), for the metrics: seconds, outcome. */
      onCardHandled?: (seconds: number, outcome: 'card' | 'unreadable' | 'anomaly' | 'test') => void;
      /** Each card read after the gate opened for it, or after the previous card of the same opening: seconds. */
      onCardDrawn?: (seconds: number) => void;
    } = { decks: 8 },
  ) {
    this.status = { spec, state: 'connecting', lastEvent: null, lidOpen: false };
    this.sampledLog = options.sampledLog ?? { warn: (_kind, fields, msg) => log.warn(fields, msg), close: () => undefined };
  }

  /** The shoe's warnings, alarms and disconnects: the first of a kind at once, then one a second with the count. */
  private readonly sampledLog: SampledLines;

  start(): void {
    const open = this.options.open ?? openShoe;
    this.device = open(this.spec, {
      protocol: this.options.protocol ?? 'framed',
      ...(this.options.seed !== undefined ? { seed: this.options.seed } : {}),
      ...(this.options.simCutCardAt !== undefined ? { sim: { cutCardAt: this.options.simCutCardAt } } : {}),
      // A simulated shoe is a new device at every start, numbering from 1: only real hardware resumes.
      ...(this.options.lastSequence !== undefined && this.spec !== 'sim' ? { lastSequence: this.options.lastSequence } : {}),
      onEvent: (e) => this.handle(e),
    });
    this.device.on((e) => this.track(e));
    this.stopWatching = this.controller.onChange(() => this.syncGate());
    this.tapFrames();
    // A simulated shoe starts loaded, as a dealer would bring a shuffled shoe to an opening table.
    this.device.simulator?.loadShoe({ decks: this.options.decks });
  }

  /**
   * Whether the dealer can draw now as far as the gate goes: open, or a shoe that has no gate the
   * host controls. The simulated dealer waits on it; a real dealer meets the locked gate. Not while
   * a command is on its way: open as last confirmed and a LOCK sent, a draw now meets a gate that
   * is locking (a service-mode card test drawn then was refused, and nobody drew again).
   */
  gateOpen(): boolean {
    return this.lockUnavailable || (this.gate === 'open' && !this.gateBusy);
  }

  /** Called whenever `gateOpen()` may have changed. */
  onGateChange(listener: () => void): () => void {
    return this.gateChanges.on(listener);
  }

  /** Runs `draw` once the gate is open (at once if it is): a simulated draw the gate would otherwise refuse. */
  whenGateOpen(draw: () => void): void {
    if (this.gateOpen()) return draw();
    const off = this.onGateChange(() => {
      if (!this.gateOpen()) return;
      off();
      draw();
    });
  }

  /** Locks or unlocks the gate to match the table, one command at a time, until they agree. */
  private syncGate(): void {
    const device = this.device;
    if (!device || !this.linkUp || this.gateBusy || this.lockUnavailable) return;
    // Service mode's card test reads the next card between rounds: the gate opens for it.
    const want = this.controller.reads.expectsCard() || this.cardTest !== null ? 'open' : 'locked';
    if (want === this.gate) return;
    this.gateBusy = true;
    const generation = this.linkGeneration;
    const done = (ok: boolean) => {
      this.gateBusy = false;
      if (generation !== this.linkGeneration) {
        // The answer says nothing now, but the gate reads open only with no command on its way:
        // a draw waiting on it is told (the shoe may have said its gate is open meanwhile).
        this.gateChanged();
        return this.syncGate();
      }
      if (ok) this.gate = want;
      if (ok) this.drawFrom = want === 'open' ? performance.now() : null;
      else if (this.linkUp) {
        // No lock from this device (an ASCII stream has no way back; a framed shoe refused or did
        // not answer): cards come when drawn and one out of turn is a hold, as without a gate.
        this.lockUnavailable = true;
        this.gate = null;
        this.log.warn(
          { spec: this.spec, protocol: device.protocol, wanted: want },
          'the shoe did not lock or unlock: cards drawn out of turn will put the table on hold',
        );
        this.leaveOpen(device);
      }
      this.gateChanged();
      this.syncGate();
    };
    void (want === 'locked' ? device.lock() : device.unlock()).then(done, () => done(false));
  }

  /**
   * A command given up may still have been carried out (a framed shoe's answer too late for its
   * three tries on a busy host): a shoe left locked would give no card to a table that deals as
   * without a gate. One UNLOCK more, its answer not waited on. Its answer does not give the gate
   * back to the host: a shoe that refuses LOCK and takes UNLOCK would be asked again and again.
   * A shoe that reports itself locked does (`track`).
   */
  private leaveOpen(device: OpenedShoe): void {
    if (device.protocol !== 'framed') return;
    void device.unlock().catch(() => undefined);
  }

  /**
   * The shoe's state in its answer to the heartbeat (framed HELLO). A shoe that restarted within the
   * heartbeat's limit is never lost to the host, and its gate may have come back other than the host
   * set it: open at betting gives cards out of turn, locked at a card cue gives none. Set again.
   * Not while a command is on its way: the status may have left the shoe before the command came.
   */
  private statusSays(locked: boolean): void {
    if (this.gateBusy || this.statusContradicted >= STATUS_CONTRADICTIONS) return;
    if (this.lockUnavailable) {
      // Dealt as without a gate: an open shoe is what that needs; a locked one is the host's again.
      if (locked) this.lockedAfterAll();
      return;
    }
    const said = locked ? 'locked' : 'open';
    if (this.gate === null) return;
    if (said === this.gate) {
      this.statusCorrected = false;
      this.statusContradicted = 0;
      return;
    }
    // A shoe whose HELLO never shows its gate (a firmware that leaves the flag out, a shoe with no
    // gate that answers LOCK OK) would be sent a command at every idle heartbeat for good.
    if (this.statusCorrected && ++this.statusContradicted >= STATUS_CONTRADICTIONS) {
      this.log.warn({ spec: this.spec }, "the shoe's status does not show the gate it confirmed: not looked at for its gate until the shoe reconnects");
      return;
    }
    this.statusCorrected = true;
    this.log.warn({ spec: this.spec, host: this.gate, shoe: said }, "the shoe's status shows its gate other than the host set it: set again");
    this.gate = said;
    this.gateChanged();
    this.syncGate();
  }

  /**
   * A LOCK the host gave up on, carried out after all (the shoe's LOCK_STATE or status says so): a
   * locked shoe gives no card to a table dealing as without a gate. It is the host's to open again.
   */
  private lockedAfterAll(): void {
    this.lockUnavailable = false;
    this.gate = 'locked';
    this.log.info({ spec: this.spec }, "the shoe reports its gate locked: its gate is the host's again");
    this.gateChanged();
    this.syncGate();
  }

  private gateChanged(): void {
    this.gateChanges.emit();
  }

  /** The simulator behind a `sim` shoe; null for real hardware. */
  simulator(): OpenedShoe['simulator'] | null {
    return this.device?.simulator ?? null;
  }

  private readonly frames = new Emitter<WireFrame>();

  private frameTap: (() => void) | null = null;

  /** Every frame on the shoe's wire (service mode's Devices trace); nothing is kept here. */
  onFrame(listener: (f: WireFrame) => void): () => void {
    const off = this.frames.on(listener);
    this.tapFrames();
    return () => {
      off();
      this.tapFrames();
    };
  }

  /** The device's trace is listened to only while someone listens here: the driver builds a frame's hex only for a listener. */
  private tapFrames(): void {
    if (this.frames.listened && this.device && !this.frameTap) this.frameTap = this.device.onFrame((f) => this.frames.emit(f));
    else if (!this.frames.listened && this.frameTap) {
      this.frameTap();
      this.frameTap = null;
    }
  }

  /** Every decoded shoe event, for service mode's live trace. */
  onEvent(listener: (e: ShoeEvent) => void): () => void {
    return this.events.on(listener);
  }

  /** Service mode's card test; returns a function that ends the test. */
  testNextCard(onCard: (card: string) => void): () => void {
    this.cardTest = onCard;
    this.syncGate();
    return () => {
      if (this.cardTest === onCard) this.cardTest = null;
      this.syncGate();
    };
  }

  state(): ShoeStatus {
    return { ...this.status };
  }

  async close(): Promise<void> {
    this.stopWatching?.();
    await this.device?.close();
    this.sampledLog.close();
  }

  /** When the dealer's wait for the next card began (the gate opened, or the last card was read); null while locked. */
  private drawFrom: number | null = null;

  /**
   * The shoe's own count of the cards out of it since it was loaded (`index`, 1…N in this shoe,
   * docs/protocols/shoe.md, CARD_DRAWN and CARD_UNREADABLE); null until a load or a first read sets it.
   */
  private lastIndex: number | null = null;
  /** The sequence of the read that set `lastIndex`. */
  private lastIndexSequence: number | null = null;

  /**
   * A card read whose index is not one more than the last: a card left the shoe that was never
   * reported (a report lost or dropped), or the count went back (one reported twice, a lie). Either
   * way the next card read is not the next card in the deal: the table holds, as for an unreadable
   * card (a person enters the missing card, or voids the round), before the read itself is handled.
   */
  private checkIndex(e: Extract<SequencedShoeEvent, { type: 'card' | 'unreadable' }>): void {
    const last = this.lastIndex;
    // The same read again (its handling failed, it was not ACKed, the shoe sent it again): its own index, not a count gone back.
    if (last !== null && e.index === last && e.sequence === this.lastIndexSequence) return;
    if (last !== null && e.index !== last + 1) {
      this.log.warn(
        { sequence: e.sequence, index: e.index, expected: last + 1 },
        "the shoe's card count is not the next one: a card not reported, or reported twice",
      );
      this.controller.shoe.onAnomaly('unreadable', null, e.sequence);
    }
    // Followed from here, so the read's own handling can be retried (a refused journal) without a second hold.
    this.lastIndex = e.index;
    this.lastIndexSequence = e.sequence;
  }

  /**
   * The cut card and an empty shoe say how many cards were dealt before them (docs/protocols/shoe.md):
   * another count than the reads' is a card drawn and never reported (or one reported twice). The
   * table holds now, not at the next read: shown the table still waiting for a card that lies on the
   * felt, a dealer would draw another.
   */
  private checkCount(e: Extract<SequencedShoeEvent, { type: 'cutCard' | 'shoeEmpty' }>): void {
    if (this.lastIndex === null || e.index === this.lastIndex) return;
    this.log.warn(
      { sequence: e.sequence, event: e.type, index: e.index, reported: this.lastIndex },
      "the shoe's count of cards dealt is not the cards it reported",
    );
    this.controller.shoe.onAnomaly('unreadable', null, e.sequence);
    // Counted from here: the person's entry stands for the card missing, and the next read follows this count.
    this.lastIndex = e.index;
    this.lastIndexSequence = e.sequence;
  }

  private handle(e: SequencedShoeEvent): void {
    if (e.type === 'shoeLoaded') [this.lastIndex, this.lastIndexSequence] = [0, null];
    if (e.type === 'cutCard' || e.type === 'shoeEmpty') this.checkCount(e);
    if (e.type !== 'card' && e.type !== 'unreadable') return this.handleRead(e);
    this.checkIndex(e);
    const start = performance.now();
    const outcome = this.cardTest ? 'test' : e.type === 'unreadable' ? 'unreadable' : e.wrongDeck ? 'anomaly' : 'card';
    if (this.drawFrom !== null) {
      this.options.onCardDrawn?.((start - this.drawFrom) / 1000);
      this.drawFrom = start;
    }
    this.handleRead(e);
    this.options.onCardHandled?.((performance.now() - start) / 1000, outcome);
  }

  private handleRead(e: SequencedShoeEvent): void {
    if (e.type === 'card' || e.type === 'unreadable') this.cardsHandled++;
    if (e.type === 'shoeLoaded') this.loadsHandled++;
    switch (e.type) {
      case 'card':
        if (this.cardTest) {
          const test = this.cardTest;
          this.cardTest = null;
          test(e.wrongDeck ? `${e.card} (wrong deck)` : e.card);
          this.syncGate();
          return;
        }
        if (e.wrongDeck) {
          this.log.warn({ sequence: e.sequence, card: e.card }, 'card of another deck set');
          this.controller.shoe.onAnomaly('wrong-deck', e.card, e.sequence);
          return;
        }
        // The driver parsed the card at the device edge into a code; this is its value, not a second parse.
        // The shoe's burn flag goes with it: a burnt card where the table waits for a card of the round is a hold.
        this.controller.shoe.onCard(cardOf(e.card), e.sequence, e.burn);
        return;
      case 'unreadable':
        if (this.cardTest) {
          const test = this.cardTest;
          this.cardTest = null;
          test(`unreadable (${e.reason})`);
          this.syncGate();
          return;
        }
        this.log.warn({ sequence: e.sequence, reason: e.reason }, 'unreadable card');
        this.controller.shoe.onAnomaly('unreadable', null, e.sequence);
        return;
      case 'cutCard':
        this.controller.shoe.onCutCard(e.sequence);
        return;
      case 'shoeLoaded':
        this.controller.shoe.onNewShoe(e.sequence);
        return;
      default:
        return;
    }
  }

  private track(e: ShoeEvent): void {
    this.options.onDeviceEvent?.(e);
    this.events.emit(e);
    // The heartbeat's status comes every idle second: the last event is the last thing that happened.
    if (e.type !== 'status') this.status.lastEvent = e.type;
    if (e.type === 'connected' || e.type === 'reconnected') {
      this.status.state = 'ready';
      // A device back on the link may have restarted with its gate open: told again. A device
      // that would not lock before is asked again too (it may be another one).
      this.linkUp = true;
      this.linkGeneration++;
      this.gate = null;
      this.lockUnavailable = false;
      this.statusCorrected = false;
      this.statusContradicted = 0;
      this.gateChanged();
      this.syncGate();
    } else if (e.type === 'disconnected') {
      this.status.state = 'disconnected';
      this.linkUp = false;
      this.linkGeneration++;
      this.gate = null;
      this.gateChanged();
    } else if (e.type === 'lock' && e.locked && this.lockUnavailable) {
      this.lockedAfterAll();
    } else if (e.type === 'status') {
      this.statusSays(e.locked);
    } else if (e.type === 'lock') {
      // The device's own word on its gate (framed LOCK_STATE).
      this.gate = e.locked ? 'locked' : 'open';
      this.gateChanged();
      this.syncGate();
    }
    if (e.type === 'alarm') this.status.state = 'alarm';
    else if (e.type === 'lid') this.status.lidOpen = e.open;
    // Sampled per kind: a device sending one bad line or frame after another wrote a warn line each.
    if (e.type === 'disconnected' || e.type === 'alarm' || e.type === 'warning') this.sampledLog.warn(`shoe:${e.type}`, { event: e }, 'shoe event');
  }
}
