import { closeSync, fsyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { defineCommand, options } from '../command.js';
import { UsageError } from '../tool.js';
import { withPeerRegistry } from './peer-people.js';

export const command = defineCommand({
  name: 'service peer-file',
  summary:
    "Makes this table's enrolment file for a peer table (what its peer-add takes): a new credential that\npeer dials this table with, kept here only hashed, journalled; the file signed with the table's key,\nvalid 24 hours (--valid-hours). A supervisor (--by) and a second person (--second), their PINs read\nfrom the terminal (or standard input); the host stopped.",
  usage: 'usage: etg service peer-file --data-dir D --for TABLE --url https://HOST:PORT --by SUPERVISOR_STAFF --second STAFF [--out FILE] [--valid-hours H]',
  options: {
    'data-dir': { type: 'string', value: 'D', help: "the kiosk's data folder" },
    for: { type: 'string', value: 'TABLE', help: 'the peer table the file is for' },
    url: { type: 'string', value: 'URL', help: "this table's LAN listener as the peer dials it, https://host:port" },
    by: { type: 'string', value: 'SUPERVISOR_STAFF', help: 'the supervisor who asks' },
    second: { type: 'string', value: 'STAFF', help: 'the second person, who confirms' },
    out: { type: 'string', value: 'FILE', help: 'where to write the file (owner-only, never over another file); standard output without' },
    'valid-hours': { type: 'string', value: 'H', help: 'how long the peer may take to enrol it (default 24, at most 168)' },
  },
});

export async function run(argv: string[]): Promise<number> {
  const o = options(command, argv);
  if (!o['data-dir'] || !o.for || !o.url || !o.by || !o.second) throw new UsageError(command.usage);
  const hours = o['valid-hours'] === undefined ? 24 : Number(o['valid-hours']);
  if (!Number.isFinite(hours) || hours <= 0 || hours > 168) throw new UsageError(`--valid-hours is between 0 and 168\n${command.usage}`);
  // The output file is made (owner-only, never over another) before the credential: a file that
  // cannot be written must not leave a new credential journalled whose secret nobody has.
  const fd = o.out ? openSync(o.out, 'wx', 0o600) : null;
  try {
    const made = await withPeerRegistry({ dataDir: o['data-dir'], by: o.by, second: o.second, url: o.url, what: 'etg service peer-file' }, (registry, by) =>
      registry.issue(o.for ?? '', by, hours * 3600_000),
    );
    if (!made.ok) throw new Error(made.detail);
    // Journalled, not written (a full disk): the file would not work; the next start refuses the peer until made again.
    if (made.unwritten)
      throw new Error(
        `${made.table}: the new credential is journalled, but the peer files could not be written (${made.unwritten}): no file made; free the disk and make it again`,
      );
    // The secret leaves the host here, once: into the new file, or to standard output.
    if (fd === null) console.log(made.file);
    else {
      writeSync(fd, made.file);
      fsyncSync(fd);
      console.log(JSON.stringify({ for: made.table, credential: made.credential, file: o.out }));
    }
  } catch (e) {
    if (fd !== null && o.out) rmSync(o.out, { force: true });
    throw e;
  } finally {
    if (fd !== null) closeSync(fd);
  }
  return 0;
}
