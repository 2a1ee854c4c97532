// Storage faults below the journal, on real SQLite files: a power cut in the middle of a WAL
// checkpoint (some of the WAL's pages copied into the database file, the WAL kept), and a lost or
// truncated WAL (commits not yet checkpointed gone). The first must open with every committed
// entry; the second must be refused at open rather than run on a journal that silently lost
// acknowledged entries (ledger/head-mark.ts).
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, statSync, truncateSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HeadMark, Ledger, LedgerRollbackError, verifyLedger } from './index.js';
import { appendSynthetic } from './testing/synthetic.js';
import { checkpointWrites, parseWal, type WalFrame } from './testing/wal-file.js';

const TERMINAL = 'WAL-1';
const root = mkdtempSync(path.join(os.tmpdir(), 'wal-faults-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A ledger's files as a power cut leaves them: the database, its WAL, the head mark, the checkpoint key; no -shm. */
interface Image {
  dir: string;
  file: string;
  head: { seq: number; hash: string };
  hashes: string[];
}

let original: Image;

function copyImage(from: Image, name: string): Image {
  const dir = path.join(root, name);
  mkdirSync(dir);
  for (const suffix of ['', '-wal', '.head']) if (existsSync(from.file + suffix)) copyFileSync(from.file + suffix, path.join(dir, `ledger.sqlite${suffix}`));
  copyFileSync(path.join(from.dir, 'ledger-checkpoint.key'), path.join(dir, 'ledger-checkpoint.key'));
  return { ...from, dir, file: path.join(dir, 'ledger.sqlite') };
}

/** Opens as the host does and checks that every committed entry is there and the chain verifies. */
function opensWithEverything(img: Image): void {
  const l = Ledger.open({ file: img.file, terminalId: TERMINAL });
  try {
    assert.deepEqual(l.headOf(), img.head);
    for (let s = 1; s <= img.head.seq; s++) assert.equal(l.entry(s)?.hash, img.hashes[s - 1], `entry ${s}`);
    const v = verifyLedger(l);
    assert.ok(v.ok, v.problems.join('; '));
  } finally {
    l.close();
  }
}

/** Writes a frame's page into the database file at its place, as a checkpoint does (or part of it: `bytes`). */
function writePage(file: string, pageSize: number, f: WalFrame, bytes = f.data.length): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, f.data, 0, bytes, (f.page - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
}

before(() => {
  const dir = path.join(root, 'original');
  mkdirSync(dir);
  const file = path.join(dir, 'ledger.sqlite');
  const ledger = Ledger.open({ file, terminalId: TERMINAL, checkpointEvery: 300 });
  // Enough entries for SQLite's automatic checkpoints (every 1,000 pages) to have run, and then some
  // in the WAL that no checkpoint has copied yet.
  appendSynthetic(ledger, 2_500, { batch: 7 });
  const head = ledger.headOf();
  const hashes = Array.from({ length: head.seq }, (_, i) => ledger.entry(i + 1)?.hash ?? '');
  // The power cut: the files copied while the ledger is open (its WAL not checkpointed by a close).
  const img = copyImage({ dir, file, head, hashes }, 'cut');
  ledger.close();
  original = img;
});

describe('a power cut during a WAL checkpoint', () => {
  it('the image under test has committed frames in its WAL that the database file lacks', () => {
    const wal = parseWal(readFileSync(`${original.file}-wal`));
    assert.ok(wal.committed.length > 10, `${wal.committed.length} committed frames`);
    assert.ok(checkpointWrites(wal).length > 5);
    opensWithEverything(copyImage(original, 'intact'));
  });

  it('opens with every committed entry whatever prefix of the checkpoint reached the database file, a torn page included', () => {
    const wal = parseWal(readFileSync(`${original.file}-wal`));
    const writes = checkpointWrites(wal);
    const cuts = [0, 1, 2, Math.floor(writes.length / 3), Math.floor(writes.length / 2), writes.length - 1, writes.length];
    for (const k of cuts) {
      const img = copyImage(original, `prefix-${k}`);
      for (const f of writes.slice(0, k)) writePage(img.file, wal.pageSize, f);
      // The page being written when the power went: only its first sectors reached the disk.
      const torn = writes[k];
      if (torn) writePage(img.file, wal.pageSize, torn, 512 * (1 + (k % 7)));
      opensWithEverything(img);
    }
  });

  it('opens with every committed entry when any subset of the pages landed (the disk reorders writes), and with the database file grown to the commit size', () => {
    const wal = parseWal(readFileSync(`${original.file}-wal`));
    const writes = checkpointWrites(wal);
    // A seeded choice of pages (the ledger may not import the engine's generator): an LCG is plenty here.
    let state = 20;
    const rng = { below: (n: number) => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31), state % n) };
    for (let trial = 0; trial < 12; trial++) {
      const img = copyImage(original, `subset-${trial}`);
      for (const f of writes) if (rng.below(2) === 0) writePage(img.file, wal.pageSize, f);
      if (trial % 3 === 0) {
        // The checkpoint had set the file's size to the last commit's before the cut.
        const pages = wal.committed.at(-1)?.commitSize ?? 0;
        if (pages * wal.pageSize > statSync(img.file).size) truncateSync(img.file, pages * wal.pageSize);
      }
      opensWithEverything(img);
    }
  });
});

describe('a lost WAL', () => {
  it('is refused at open with a LedgerRollbackError that names what is gone, rather than a journal silently short', () => {
    const img = copyImage(original, 'lost');
    rmSync(`${img.file}-wal`);
    // What the database file alone holds (a diagnostic open: no tail check, no mark).
    const alone = Ledger.open({ file: img.file, terminalId: TERMINAL, tailCheck: false, checkpointKey: null });
    const short = alone.headOf().seq;
    alone.close();
    assert.ok(short < img.head.seq, `the database file alone ends at ${short}, the journal at ${img.head.seq}`);
    assert.throws(
      () => Ledger.open({ file: img.file, terminalId: TERMINAL }),
      (e: unknown) =>
        e instanceof LedgerRollbackError &&
        e.mark.seq === img.head.seq &&
        e.head.seq === short &&
        /the journal ends at entry \d+, but entry \d+ was committed here before/.test(e.message) &&
        e.message.includes('-wal'),
    );
    // Refused again at the next try: nothing was written that would hide it.
    assert.throws(() => Ledger.open({ file: img.file, terminalId: TERMINAL }), LedgerRollbackError);
  });

  it('a WAL truncated at a frame (fsck after a power cut) that drops commits is refused the same way', () => {
    const wal = parseWal(readFileSync(`${original.file}-wal`));
    const img = copyImage(original, 'truncated-wal');
    // Keep the first half of the frames: the later commits are gone.
    const keep = Math.floor(wal.frames.length / 2);
    truncateSync(`${img.file}-wal`, 32 + keep * (24 + wal.pageSize));
    assert.throws(() => Ledger.open({ file: img.file, terminalId: TERMINAL }), LedgerRollbackError);
  });

  it('an older copy of the database put in place is refused; one whose mark is older than its journal (a power cut before the mark reached the disk) opens', () => {
    const img = copyImage(original, 'older-copy');
    // The mark from the future: a journal that was longer once.
    const longer = copyImage(original, 'longer');
    const l = Ledger.open({ file: longer.file, terminalId: TERMINAL });
    appendSynthetic(l, 5, { from: 1_000_000 });
    l.close();
    copyFileSync(`${longer.file}.head`, `${img.file}.head`);
    assert.throws(() => Ledger.open({ file: img.file, terminalId: TERMINAL }), LedgerRollbackError);
    // A stale mark (older than the journal, its entry the journal's) is no alarm.
    const stale = copyImage(original, 'stale-mark');
    const mark = new HeadMark(stale.file);
    mark.write({ seq: 100, hash: original.hashes[99] ?? '' });
    mark.close();
    opensWithEverything(stale);
  });

  it('removing the mark is the deliberate acceptance of the loss: the ledger then opens on what the file holds', () => {
    const img = copyImage(original, 'accepted');
    rmSync(`${img.file}-wal`);
    rmSync(`${img.file}.head`);
    const l = Ledger.open({ file: img.file, terminalId: TERMINAL });
    try {
      assert.ok(l.headOf().seq < img.head.seq);
      assert.ok(verifyLedger(l).ok);
    } finally {
      l.close();
    }
  });

  it('a mark torn by a power cut (garbage) is ignored, never a refusal of an intact journal', () => {
    const img = copyImage(original, 'torn-mark');
    const fd = openSync(`${img.file}.head`, 'r+');
    writeSync(fd, '12x', 0, 'utf8');
    closeSync(fd);
    opensWithEverything(img);
  });
});
