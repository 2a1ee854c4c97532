// The write-ahead log's file format, as far as the storage-fault tests need it to play a
// checkpoint by hand. From SQLite's file format page, "The WAL File Format"
// (https://www.sqlite.org/fileformat2.html#walformat): a 32-byte header (magic 0x377f0682 or
// 0x377f0683, format version 3007000, page size, checkpoint sequence, salt-1, salt-2, checksum-1,
// checksum-2; big-endian), then frames of a 24-byte header (page number, the database size in
// pages after a commit frame or 0, salt-1, salt-2, checksum-1, checksum-2) and one page. A frame
// belongs to the log only while its salts are the header's; a checkpoint copies into the database
// file, for each page, the newest frame of it up to the last commit.

export interface WalFrame {
  /** 0-based index of the frame in the file. */
  index: number;
  page: number;
  /** The database's size in pages after this commit; 0 for a frame that is not a commit. */
  commitSize: number;
  data: Buffer;
}

export interface WalFile {
  pageSize: number;
  /** The frames whose salts match the header, in the file's order. */
  frames: WalFrame[];
  /** Frames up to and including the last commit frame: what a reader and a checkpoint see. */
  committed: WalFrame[];
}

export class WalFormatError extends Error {
  override readonly name = 'WalFormatError';
}

const HEADER = 32;
const FRAME_HEADER = 24;

export function parseWal(bytes: Buffer): WalFile {
  if (bytes.length < HEADER) throw new WalFormatError(`a WAL file is at least ${HEADER} bytes; this one is ${bytes.length}`);
  const magic = bytes.readUInt32BE(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) throw new WalFormatError(`bad WAL magic 0x${magic.toString(16)}`);
  const pageSize = bytes.readUInt32BE(8);
  const salt1 = bytes.readUInt32BE(16);
  const salt2 = bytes.readUInt32BE(20);
  const frames: WalFrame[] = [];
  for (let off = HEADER, index = 0; off + FRAME_HEADER + pageSize <= bytes.length; off += FRAME_HEADER + pageSize, index++) {
    if (bytes.readUInt32BE(off + 8) !== salt1 || bytes.readUInt32BE(off + 12) !== salt2) break;
    frames.push({
      index,
      page: bytes.readUInt32BE(off),
      commitSize: bytes.readUInt32BE(off + 4),
      data: bytes.subarray(off + FRAME_HEADER, off + FRAME_HEADER + pageSize),
    });
  }
  const lastCommit = frames.findLastIndex((f) => f.commitSize > 0);
  return { pageSize, frames, committed: frames.slice(0, lastCommit + 1) };
}

/** What a complete checkpoint writes: the newest committed frame of each page, in page order. */
export function checkpointWrites(wal: WalFile): WalFrame[] {
  const newest = new Map<number, WalFrame>();
  for (const f of wal.committed) newest.set(f.page, f);
  return [...newest.values()].sort((a, b) => a.page - b.page);
}
