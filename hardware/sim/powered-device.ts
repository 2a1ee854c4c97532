// What the byte-level simulators behind a power switch share (the bill acceptors' through
// billacceptor/simulator-base.ts, the ticket printer's): the mains (a cut now or armed at a step of
// the mechanism), the wire faults on the replies, and the host's frames kept for a test.
import { ByteDevice } from './device-side.js';
import { PowerSwitch } from './power-switch.js';
import { keepRecent, readRecord, receivedRecord, type ReceivedOptions } from './recent.js';
import type { WireFault } from '../billacceptor/sim-controls.js';
import { WireFaults } from './wire-faults.js';

export abstract class PoweredDevice<Step extends string, Frame> extends ByteDevice {
  /** Host frames received, kept only for a test that asked (`keepReceived`): the newest, bounded (recent.ts). */
  private readonly record: Frame[] | null;
  protected readonly wire = new WireFaults();
  protected readonly power = new PowerSwitch<Step>({ lost: () => this.powerLost(), restored: () => this.powerRestored() });

  constructor(options: ReceivedOptions) {
    super();
    this.record = receivedRecord(options);
  }

  /** What the host sent, for tests that check what the driver sent; throws unless made with `keepReceived`. */
  get received(): Frame[] {
    return readRecord(this.record);
  }

  /** Frames out of the bytes from the host (the protocol's parser). */
  protected abstract parse(bytes: Uint8Array): Iterable<Frame>;
  /** One frame from the host, answered as the protocol does. */
  protected abstract handle(frame: Frame): void;
  /** The mains went: the parser forgets a half frame. */
  protected abstract powerLost(): void;
  /** The mains came back: the device's power-up. */
  protected abstract powerRestored(): void;

  get powered(): boolean {
    return this.power.isOn;
  }

  /** Cut the power now, or right after the device reports `at`; restore after restoreAfterMs if given. */
  powerCut(options: { at?: Step; restoreAfterMs?: number } = {}): void {
    this.power.cut(options);
  }

  powerOn(): void {
    this.power.restore();
  }

  /** Damage the next reply(ies) on the wire. */
  wireFault(kind: WireFault, count = 1): void {
    this.wire.add(kind, count);
  }

  receive(bytes: Uint8Array): void {
    if (!this.power.isOn) return;
    for (const f of this.parse(bytes)) {
      if (this.record) keepRecent(this.record, f);
      this.handle(f);
    }
  }

  /** A reply on the wire, through the armed wire faults. */
  protected send(reply: Uint8Array): void {
    const b = this.wire.apply(reply);
    if (b) this.transmit(b);
  }
}
