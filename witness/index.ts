// The ledger witness: a small service under its own system user that signs each head of a
// terminal's journal only when it extends the one it signed before (docs/security.md, "The
// ledger witness"; docs/ledger.md, "The witness"). `etg witness serve` runs it.
import { mkdirSync } from 'node:fs';
import { lockWitnessFolder } from './folder-lock.js';
import { loadKey, type KeySource } from './keys.js';
import { listenWitness, type Listen, type Listening } from './server.js';
import { Witness, type WitnessOptions } from './witness.js';

export { WitnessFolderBusy } from './folder-lock.js';
export { forgetTerminal, terminalIdProblem } from './forget.js';
export { KeyFileError, loadKey, readKeyFile, writeNewKeyFile, type KeySource, type WitnessKey } from './keys.js';
export { RECORD_FILE, WitnessRecord, type RecordLine } from './record.js';
export { listenWitness, systemdSocket, type Listen, type Listening } from './server.js';
export { sealedKeyExists, TpmError, type TpmOptions } from './tpm.js';
export { Witness, type WitnessOptions } from './witness.js';

export interface RunningWitness {
  witness: Witness;
  listening: Listening;
  keyStore: 'tpm' | 'file';
  close(): Promise<void>;
}

/** Loads the key, opens the folder and listens. */
export async function startWitness(o: {
  dir: string;
  key: KeySource;
  listen: Listen;
  terminals?: readonly string[];
  log?: WitnessOptions['log'];
  rotateBytes?: number;
  keepArchives?: number;
}): Promise<RunningWitness> {
  const key = loadKey(o.key);
  // Its folder first, held for its life: one witness per folder (witness/folder-lock.ts).
  mkdirSync(o.dir, { recursive: true, mode: 0o700 });
  const lock = lockWitnessFolder(o.dir);
  let witness: Witness;
  let listening: Listening;
  try {
    witness = new Witness({
      dir: o.dir,
      key,
      ...(o.terminals ? { terminals: o.terminals } : {}),
      ...(o.log ? { log: o.log } : {}),
      ...(o.rotateBytes !== undefined ? { rotateBytes: o.rotateBytes } : {}),
      ...(o.keepArchives !== undefined ? { keepArchives: o.keepArchives } : {}),
    });
  } catch (e) {
    lock?.release();
    throw e;
  }
  try {
    listening = await listenWitness(witness, o.listen);
  } catch (e) {
    witness.close();
    lock?.release();
    throw e;
  }
  return {
    witness,
    listening,
    keyStore: key.store,
    close: async () => {
      await listening.close();
      witness.close();
      lock?.release();
    },
  };
}
