// What the witness's record costs its start as weeks go by, and what rotating it saves.
//   npm run bench -- witness-record                 (a week of a 200-station table: about 200 MB)
//   WITNESS_RECORD_DAYS=28 npm run bench -- witness-record
// Each checkpoint adds the witness's fold (every balance and meter not zero) and the checkpoint's
// line. The record is written here line by line as the witness writes it (the same schema), for
// one terminal of `STATIONS` stations, until it holds `DAYS` days at `MB_A_DAY`:
//   1. unrotated (the witness before rotation): a start reads all of it;
//   2. rotated at 64 MiB (the default): the most a start ever reads is one record just short of
//      the size plus what a rotation carries; timed on such a record, and the rotation itself.
// Beside each, a bare read of the same file's lines with JSON.parse alone (no schema, no fold).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { RECORD_FILE, Witness, type RecordLine } from '../witness/index.js';
import { Carry, ROTATE_BYTES, rotateRecord } from '../witness/rotation.js';
import { figure, QUICK, times } from './report.js';

const STATIONS = 200;
const MB_A_DAY = 30;
const DAYS = Number(process.env.WITNESS_RECORD_DAYS ?? (QUICK ? 0.1 : 7));
const ROTATE = QUICK ? 1024 * 1024 : ROTATE_BYTES;
const TERMINAL = 'BENCH';
const root = mkdtempSync(path.join(os.tmpdir(), 'witness-record-bench-'));
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const hex = () => randomBytes(32).toString('hex');
// V8's own full GC, without starting the process with a flag (bench/node-probe.ts does the same).
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
v8.setFlagsFromString('--no-expose-gc');

/** A fold and a checkpoint at entry `seq`: the witness's two lines per checkpoint. */
function checkpointLines(seq: number): RecordLine[] {
  const balances: [string, number][] = [];
  const meters: [string, string, number][] = [];
  for (let s = 1; s <= STATIONS; s++) {
    balances.push([`cashbox:${s}:10000`, 10_000 * seq], [`station:${s}:credit`, -10_000 * seq]);
    meters.push([`station:${s}`, 'totalIn', 10_000 * seq], [`station:${s}`, 'gamesPlayed', seq]);
  }
  const hash = hex();
  return [
    { k: 'fold', terminal: TERMINAL, effects: { seq, hash, balances, meters, openBets: [] } },
    { k: 'checkpoint', terminal: TERMINAL, seq, hash, stateSha256: hex(), signature: 'c2lnbmF0dXJl', at: new Date(seq * 1000).toISOString() },
  ];
}

/** A record of at least `bytes`, written as the witness writes it; returns what a rotation of it would carry. */
function writeRecord(dir: string, bytes: number): Carry {
  mkdirSync(path.join(dir, 'heads'), { recursive: true, mode: 0o700 });
  const fd = openSync(path.join(dir, RECORD_FILE), 'w', 0o600);
  const carry = new Carry();
  try {
    for (let seq = 1, written = 0; written < bytes; seq++) {
      for (const line of checkpointLines(seq)) {
        written += writeSync(fd, `${JSON.stringify(line)}\n`);
        carry.take(line);
      }
    }
  } finally {
    closeSync(fd);
  }
  return carry;
}

/** The bare work: the file's lines read a chunk at a time and JSON.parse'd, nothing else. */
function bareRead(file: string): number {
  const t = performance.now();
  const fd = openSync(file, 'r');
  const buf = Buffer.alloc(1024 * 1024);
  let pending = '';
  let n = 0;
  try {
    for (let got = readSync(fd, buf, 0, buf.length, null); got > 0; got = readSync(fd, buf, 0, buf.length, null)) {
      const parts = (pending + buf.toString('utf8', 0, got)).split('\n');
      pending = parts.pop() ?? '';
      for (const p of parts) if (JSON.parse(p) !== null) n++;
    }
  } finally {
    closeSync(fd);
  }
  if (n === 0) throw new Error('no line read');
  return performance.now() - t;
}

/** A witness's start on `dir` (its constructor reads the record), ms and the heap it kept. */
function start(dir: string): { ms: number; heapMB: number } {
  gc();
  const before = process.memoryUsage().heapUsed;
  const t = performance.now();
  const w = new Witness({ dir, key: { privateKey, publicKey, store: 'file' } });
  const ms = performance.now() - t;
  gc();
  const heapMB = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
  w.close();
  return { ms, heapMB };
}

function report(what: string, dir: string): void {
  const file = path.join(dir, RECORD_FILE);
  const mb = statSync(file).size / 1024 / 1024;
  const bare = bareRead(file);
  const s = start(dir);
  const rec = figure({
    name: `witness start, ${what} (${mb.toFixed(0)} MiB record)`,
    unit: 'ms',
    better: 'lower',
    value: s.ms,
    baseline: { name: "a bare read of the record's lines (JSON.parse only)", value: bare },
  });
  console.log(`${rec.name}\t${s.ms.toFixed(0)} ms\tbare read ${bare.toFixed(0)} ms\t${times(rec)}\theap kept ${s.heapMB.toFixed(1)} MB`);
}

try {
  const week = path.join(root, 'unrotated');
  writeRecord(week, DAYS * MB_A_DAY * 1024 * 1024);
  report(`${DAYS} days unrotated`, week);
  rmSync(week, { recursive: true });
  const full = path.join(root, 'rotated');
  const carry = writeRecord(full, ROTATE - 64 * 1024);
  report('rotated: the most a start reads', full);
  const t = performance.now();
  const r = rotateRecord(full, carry.lines(), new Date(), { keepArchives: 8, after: null });
  const rotateMs = performance.now() - t;
  const bare = bareRead(path.join(full, r.archive));
  const rec = figure({
    name: `one rotation of a ${(r.bytes / 1024 / 1024).toFixed(0)} MiB record (digest, carried lines written, renamed)`,
    unit: 'ms',
    better: 'lower',
    value: rotateMs,
    baseline: { name: "a bare read of the record's lines (JSON.parse only)", value: bare },
  });
  console.log(`${rec.name}\t${rotateMs.toFixed(0)} ms\tbare read ${bare.toFixed(0)} ms\t${times(rec)}`);
  report('the record just begun by that rotation', full);
} finally {
  rmSync(root, { recursive: true, force: true });
}
