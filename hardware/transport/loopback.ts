// An in-memory byte port wired straight to a simulator's device side (no USB bridge). Used by unit
// tests of the protocol drivers; the `sim` spec goes through the fake USB bridge instead.
import type { DeviceSide } from '../sim/device-side.js';
import { BasePort } from './byte-port.js';

export class LoopbackPort extends BasePort {
  readonly description = 'loopback';

  constructor(private readonly side: DeviceSide) {
    super();
    side.attach((bytes) => this.deliver(bytes));
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.closed) throw new Error('loopback: port closed');
    this.side.receive(Uint8Array.from(bytes));
  }

  /** Simulates the link going away (cable pulled) without the device losing power. */
  drop(): void {
    this.side.attach(null);
    this.lost(new Error('loopback dropped'));
  }

  protected async shutdown(): Promise<void> {
    this.side.attach(null);
  }
}
