// What a stadium bench client reads of a frame to stamp it, the same on the table's path and on
// the bare broadcast's: the public round's version from the frame's first bytes, nothing parsed.
// Before, the table's clients parsed every frame as JSON to find it (own parts and panels too,
// then again to decode them as a station does) and the bare broadcast's clients parsed theirs:
// work no station agent does on reading its message, and not the same work on the two paths.

/** A round's patch as the host writes it (protocol 6: `["round",12,[…]]`). */
const PATCH = Buffer.from('["round",');
/** A round sent whole (`view-hub.ts`: `{"type":"public","part":"round","version":12,"state":…}`). */
const WHOLE = Buffer.from('{"type":"public","part":"round","version":');
const COMMA = 0x2c;

function startsWith(frame: Uint8Array, head: Buffer): boolean {
  if (frame.byteLength < head.byteLength) return false;
  for (let i = 0; i < head.byteLength; i++) if (frame[i] !== head[i]) return false;
  return true;
}

/** The public round's version a frame carries (whole or as a patch), or null: another part, a reply, not a round. */
export function roundVersion(frame: Uint8Array): number | null {
  const at = startsWith(frame, PATCH) ? PATCH.byteLength : startsWith(frame, WHOLE) ? WHOLE.byteLength : -1;
  if (at < 0) return null;
  let version = 0;
  let i = at;
  // At most 15 digits: a safe integer, as the protocol's versions are.
  for (; i < frame.byteLength && i < at + 15; i++) {
    const c = frame[i] as number;
    if (c < 0x30 || c > 0x39) break;
    version = version * 10 + (c - 0x30);
  }
  return i > at && frame[i] === COMMA ? version : null;
}

/**
 * The bare broadcast's message `seq` of `bytes` bytes: a round's patch as the host writes one
 * (`["round",seq,[["set",["pad"],"x…"]]]`), so its clients stamp it with `roundVersion` and
 * decode it with the protocol's decoder, as the table's clients do a card's round.
 */
export function bareRoundPatch(seq: number, bytes: number): Buffer {
  const head = `["round",${seq},[["set",["pad"],"`;
  const tail = '"]]]';
  return Buffer.from(head + 'x'.repeat(Math.max(0, bytes - head.length - tail.length)) + tail);
}
