import { generateKeyPairSync } from 'node:crypto';
import { listenWitness } from '../../witness/server.js';
import { Witness } from '../../witness/witness.js';

/**
 * A real witness on a folder and a socket, under one key for its whole life: the tests of a
 * witness going back (its folder wiped, or put back as it was) stop it, change its folder and
 * start it again under the same key and socket, as a technician restoring a backup would.
 */
export class WitnessOnFolder {
  private readonly key = { ...generateKeyPairSync('ed25519'), store: 'file' as const };
  private listening: Awaited<ReturnType<typeof listenWitness>> | null = null;
  #witness: Witness | null = null;

  constructor(
    readonly folder: string,
    readonly socket: string,
  ) {}

  /** The witness as it runs now. */
  get witness(): Witness {
    if (!this.#witness) throw new Error('the witness is not running');
    return this.#witness;
  }

  async start(): Promise<void> {
    this.#witness = new Witness({ dir: this.folder, key: this.key });
    this.listening = await listenWitness(this.#witness, { socket: this.socket });
  }

  /** Stopped, `meanwhile` done to its folder (a copy taken, the folder wiped or put back), started again. */
  async restart(meanwhile: (folder: string) => void = () => undefined): Promise<void> {
    await this.stop();
    meanwhile(this.folder);
    await this.start();
  }

  async stop(): Promise<void> {
    await this.listening?.close();
    this.#witness?.close();
    this.listening = null;
    this.#witness = null;
  }
}
