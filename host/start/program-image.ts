import { createReadStream } from 'node:fs';
import path from 'node:path';

/** A part read at a time: what one turn of the event loop hashes (0x21 yields between them). */
const PART_BYTES = 64 * 1024;

/**
 * The running program for long poll 0x21 (SAS §6.1), as the start hashed it: its files in the
 * manifest's order, read part by part as the signature is computed. Never read whole: an
 * installation's files run to hundreds of megabytes, whose synchronous read would stall every
 * station's link, the acceptors and the game for seconds, and whose copy would stay in memory.
 * A file that cannot be read ends the iteration with its error (the machine reports the poll's
 * failure); a caller that stops early closes the file it was reading.
 */
export async function* programImage(root: string, files: readonly string[]): AsyncGenerator<Uint8Array> {
  for (const rel of files) {
    const stream = createReadStream(path.join(root, rel), { highWaterMark: PART_BYTES });
    try {
      for await (const part of stream) {
        if (part instanceof Uint8Array) yield part;
      }
    } finally {
      stream.destroy();
    }
  }
}
