import { startWitness, systemdSocket, type KeySource, type Listen } from '../../witness/index.js';
import { DIR, defineCommand, options, UsageError } from './common.js';

export const command = defineCommand({
  name: 'witness serve',
  summary:
    "The ledger witness on a Unix socket: signs each head of a terminal's journal that extends the\none it signed before, refuses a lower or diverging one, and signs checkpoints at its head.\nIts key: a file only it reads (--key-file; under systemd, LoadCredential), or sealed in a\nTPM 2.0 (--tpm). Under systemd socket activation (etg-witness.socket) it takes the socket\nsystemd passes; otherwise --socket. Runs until stopped.",
  usage:
    'usage: etg witness serve --dir DIR (--key-file FILE | --tpm [--tpm-tcti TCTI] [--tpm-pcrs sha256:7]) [--socket PATH] [--terminal ID …] [--record-rotate-mb MB] [--record-keep N]',
  options: {
    dir: DIR,
    'key-file': {
      type: 'string',
      value: 'FILE',
      help: 'the Ed25519 key (PKCS#8 PEM, mode 0600; etg witness keygen); default under systemd:\n$CREDENTIALS_DIRECTORY/witness.key',
    },
    tpm: { type: 'boolean', help: 'the key sealed in the TPM: made and sealed in DIR at the first start' },
    'tpm-tcti': { type: 'string', value: 'TCTI', help: "how tpm2-tools reach the TPM (default: their own search; 'device:/dev/tpmrm0')" },
    'tpm-pcrs': { type: 'string', value: 'BANK:LIST', help: 'bind the seal to these PCRs (e.g. sha256:7, the Secure Boot state)' },
    socket: { type: 'string', value: 'PATH', help: 'listen here (mode 0660), unless systemd passed a socket' },
    terminal: { type: 'string', multiple: true, value: 'ID', help: 'serve only these terminals (default: any)' },
    'record-rotate-mb': { type: 'string', value: 'MB', help: 'rotate record.jsonl once it holds this many MiB (default 64)' },
    'record-keep': { type: 'string', value: 'N', help: 'rotated records kept, the oldest removed first (default 8)' },
  },
});

export async function run(argv: string[]): Promise<number> {
  const v = options(command, argv);
  if (!v.dir) throw new UsageError(`--dir is required\n${command.usage}`);
  const dir = String(v.dir);
  const credentials = process.env.CREDENTIALS_DIRECTORY;
  let key: KeySource;
  if (v.tpm) {
    if (v['key-file']) throw new UsageError(`--tpm and --key-file: one or the other\n${command.usage}`);
    key = { kind: 'tpm', dir, ...(v['tpm-tcti'] ? { tcti: String(v['tpm-tcti']) } : {}), ...(v['tpm-pcrs'] ? { pcrs: String(v['tpm-pcrs']) } : {}) };
  } else if (v['key-file']) key = { kind: 'file', file: String(v['key-file']) };
  else if (credentials) key = { kind: 'file', file: `${credentials}/witness.key` };
  else throw new UsageError(`--key-file FILE or --tpm is required\n${command.usage}`);
  const fd = systemdSocket();
  let listen: Listen;
  if (fd !== null) listen = { fd };
  else if (v.socket) listen = { socket: String(v.socket) };
  else throw new UsageError(`--socket PATH is required (no socket was passed by systemd)\n${command.usage}`);
  const terminals = v.terminal?.map(String);
  const rotateMb = v['record-rotate-mb'] === undefined ? undefined : wholeNumber(String(v['record-rotate-mb']), 'record-rotate-mb', 1, 1024 * 1024);
  const keep = v['record-keep'] === undefined ? undefined : wholeNumber(String(v['record-keep']), 'record-keep', 0, 100_000);
  // Refusals and failures, one JSON line each on stderr (the journal under systemd), rate-limited by the witness.
  const log = (line: Record<string, unknown>) => process.stderr.write(`${JSON.stringify(line)}\n`);
  const running = await startWitness({
    dir,
    key,
    listen,
    log,
    ...(terminals?.length ? { terminals } : {}),
    ...(rotateMb !== undefined ? { rotateBytes: rotateMb * 1024 * 1024 } : {}),
    ...(keep !== undefined ? { keepArchives: keep } : {}),
  });
  const line = { listening: running.listening.address, keyStore: running.keyStore, dir };
  console.log(v.json ? JSON.stringify(line) : `ledger witness on ${line.listening} (key: ${line.keyStore}), folder ${dir}`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  await running.close();
  return 0;
}

function wholeNumber(text: string, name: string, min: number, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) throw new UsageError(`--${name} must be a whole number ${min}–${max}, got "${text}"`);
  return Number(text);
}
