// A byte port whose bytes travel as messages of another link: a remote station's agent relays its
// acceptor's serial bytes to the table host over TLS, and the host's own driver talks to the device
// through this port as through a cable. Whoever owns the link feeds it (`receive`) and ends it
// (`end`); what the driver writes goes to `send`.
import { BasePort } from './byte-port.js';

export class MessagePort extends BasePort {
  constructor(
    readonly description: string,
    private readonly send: (bytes: Uint8Array) => void,
  ) {
    super();
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.closed) throw new Error(`${this.description}: port closed`);
    this.send(Uint8Array.from(bytes));
  }

  /** Bytes the device sent, as the link carried them. */
  receive(bytes: Uint8Array): void {
    this.deliver(bytes);
  }

  /** The link or the device's port went: a lost link, as an unplugged cable. */
  end(reason: string): void {
    this.lost(new Error(reason));
  }

  protected async shutdown(): Promise<void> {}
}
