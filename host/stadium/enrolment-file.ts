import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { jsonTextAs } from '../../terms/json-text.js';

/**
 * What a remote station's machine keeps after its enrolment (owner-only): which station it is,
 * its secret, where the table is, and the table's certificate with its fingerprint, pinned: the
 * agent talks to that certificate and no other.
 */
export const EnrolmentFile = z.strictObject({
  v: z.literal(1),
  tableId: z.string().min(1).max(32),
  station: z.number().int().positive(),
  secret: z.string().min(32).max(128),
  /** The table's LAN listener, `https://host:port`. */
  host: z.url({ protocol: /^https$/ }),
  certificate: z.string().min(100).max(20_000),
  fingerprint: z.string().regex(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/),
  /** `host` is an edge of the table (issue 55): the secret is never sent there, the station proves it on the host's nonce, and the device link refuses it (station-agent/device-link.ts, `directEnrolment`). */
  edge: z.literal(true).optional(),
});
export type EnrolmentFile = z.infer<typeof EnrolmentFile>;

/**
 * The enrolment kept at `file`, or an error naming it, why and what to do: a technician at the
 * station's machine read only JSON.parse's words, or zod's issues as raw JSON.
 */
export function readEnrolment(file: string): EnrolmentFile {
  const redo = "a station's machine keeps the file service mode gave it at enrolment: copy it again from where it was saved, or enrol the station again";
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`enrolment ${file} cannot be read (${e instanceof Error ? e.message : String(e)}): ${redo}`, { cause: e });
  }
  const read = jsonTextAs(text, EnrolmentFile, "a station's enrolment");
  if (!read.ok) throw new Error(`enrolment ${file}: ${read.why}: ${redo}`);
  return read.data;
}

export function writeEnrolment(file: string, e: EnrolmentFile): void {
  writeFileSync(file, JSON.stringify(EnrolmentFile.parse(e), null, 1), { mode: 0o600, flush: true });
}

/** What a station's machine is given at enrolment: its credential with the table's address and pinned certificate. */
export function enrolmentFor(
  credential: { readonly station: number; readonly secret: string },
  table: { readonly tableId: string; readonly lanOrigin: string; readonly certificate: string; readonly fingerprint: string },
): EnrolmentFile {
  return EnrolmentFile.parse({
    v: 1,
    tableId: table.tableId,
    station: credential.station,
    secret: credential.secret,
    host: table.lanOrigin,
    certificate: table.certificate,
    fingerprint: table.fingerprint,
  });
}
