import { createPublicKey } from 'node:crypto';
import { writeNewKeyFile } from '../../witness/index.js';
import { exportPublicKey, keyIdOf } from '../../witness/statement.js';
import { defineCommand, options, UsageError } from './common.js';

export const command = defineCommand({
  name: 'witness keygen',
  summary:
    "Makes the witness's Ed25519 key file where no TPM keeps it (mode 0600; run as root, e.g.\n/etc/etg-witness/witness.key, which systemd hands the witness through LoadCredential). Never\nreplaces a key. Prints its public key and id.",
  usage: 'usage: etg witness keygen --out FILE',
  options: { out: { type: 'string', value: 'FILE', help: 'where to write the key (must not exist)' } },
});

export function run(argv: string[]): number {
  const v = options(command, argv);
  if (!v.out) throw new UsageError(`--out is required\n${command.usage}`);
  const key = createPublicKey(writeNewKeyFile(String(v.out)));
  const out = { file: String(v.out), publicKey: exportPublicKey(key), keyId: keyIdOf(key) };
  console.log(v.json ? JSON.stringify(out) : `wrote ${out.file} (key ${out.keyId})\npublic key: ${out.publicKey}`);
  return 0;
}
