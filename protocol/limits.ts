/**
 * The screen protocol's version; a hello with another version is refused with a typed error.
 * 8: a station's cash-out may carry `aftIn` (an AFT transfer in refused, its player told), which a
 * screen or station agent of version 7 reads as a malformed view (its schemas are strict).
 * 9: service mode's table row may carry `seatsNext` (a changed file's seating waiting for the
 * round in play to end), which a version-8 service screen reads as a malformed page.
 * 10: a fault of a new kind, `ticket-in-closed` (a station closed to tickets), in a station's
 * faults and service mode's rows, whose strict kind a version-9 screen reads as a malformed view.
 * 11: a fault of a new kind, `restart-needed` (a rule set switched whose game could not be built),
 * in the table's faults and service mode's rows, which a version-10 screen reads as malformed.
 * 12: the ticket printer's and the held ticket's fault kinds, `printer-misbehaved` (added without a
 * new version on 4 December: a miss), `printer-jam`, `printer-fault` and `ticket-held`, in a
 * station's faults and service mode's rows, which a version-11 screen reads as malformed.
 * 13: service mode's `note-settle` action and the Devices page's `notesHeld` (notes no acceptor will
 * end, for a person to settle): a version-12 screen reads such a page as malformed.
 * 14: `seats` on a station's recalled bet and line (one summed across the seats names them all),
 * and service mode's recalled round's `omitted` and line's `carried`, which a version-13 screen
 * reads as malformed.
 * 15: `corrections` in service mode's recalled round's `omitted` (the corrections past the page's
 * 16) and `correctionsOmitted` on a station's recalled round (past the recall's 16), which a
 * version-14 screen reads as malformed; a station's recalled line's `hand` up to 98 (was 7).
 * 16: `omitted` in a station's `recalled` (its oldest rounds left out so its recall fits one host
 * message, host/screens/recall.ts `fitRecall`), which a version-15 screen reads as malformed.
 */
export const PROTOCOL_VERSION = 16;

/**
 * Largest message either side accepts, in UTF-8 bytes. Commands are small; a larger frame is
 * refused with an `oversized` error before it is parsed, so a misbehaving client cannot make
 * the host parse megabytes of JSON.
 */
export const MAX_MESSAGE_BYTES = 16 * 1024;

/** Snapshots from the host may be larger than commands (game recall, road maps). */
export const MAX_HOST_MESSAGE_BYTES = 1024 * 1024;

/** UTF-8 length of a string without TextEncoder, which this runtime-neutral folder cannot assume. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
