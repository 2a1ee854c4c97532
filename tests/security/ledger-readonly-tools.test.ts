// The ledger's read-only tools never write to the ledger they read. An inspector runs `etg ledger
// verify` on a ledger copied off a cabinet as evidence: a verification that migrated the file,
// rewrote its head mark or made a checkpoint key beside it changed the evidence it verified. And a
// tool of a newer build run beside a host of an older one must not migrate the file under it.
// Each ledger here is written by the ledger's own code; each tool runs as the inspector runs it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { HeadMark, LATEST_VERSION, Ledger, ledgerFile, openExistingLedger } from '../../ledger/index.js';
import { appendSynthetic } from '../../ledger/testing/synthetic.js';
import { deleteLastEntryInFile, setUserVersionInFile, userVersionInFile } from '../../ledger/testing/tamper.js';

const root = mkdtempSync(path.join(tmpdir(), 'ledger-readonly-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A data folder with a ledger of about `entries` synthetic entries and checkpoints, closed cleanly, at schema `version`. */
function folder(name: string, version = LATEST_VERSION, entries = 260): string {
  const dir = path.join(root, name);
  const ledger = Ledger.open({ dataDir: dir, terminalId: 'T1', checkpointEvery: 100, ...(version < LATEST_VERSION ? { migrateTo: version } : {}) });
  appendSynthetic(ledger, entries, { batch: 40 });
  ledger.close();
  assert.equal(userVersionInFile(dir), version);
  return dir;
}

/**
 * What the tools must leave as they found it: every file of the folder by its SHA-256 (the
 * database, its head mark, the checkpoint key) and its modification time, and the schema version. Left out: the -shm (SQLite's
 * index of the WAL, which a reader of a WAL database creates), and a -wal that holds nothing (a
 * reader opens one, empty; SQLite reads no frame of an empty WAL). A -wal with frames is compared.
 */
function snapshot(dir: string): { files: Record<string, string>; userVersion: number } {
  const files: Record<string, string> = {};
  for (const f of readdirSync(dir).sort()) {
    const full = path.join(dir, f);
    const stat = statSync(full);
    if (f.endsWith('-shm') || (f.endsWith('-wal') && stat.size === 0)) continue;
    // The modification time too: the head mark rewritten with the same line is still a write.
    files[f] = `${createHash('sha256').update(readFileSync(full)).digest('hex')} ${stat.mtimeMs}`;
  }
  return { files, userVersion: userVersionInFile(dir) };
}

/** Writes the head mark as it stood `back` entries before the head. */
function markBehind(dir: string, back: number): void {
  const ledger = openExistingLedger(dir, { tailCheck: false });
  try {
    const at = ledger.entry(ledger.headOf().seq - back);
    assert.ok(at);
    const mark = new HeadMark(ledgerFile(dir));
    mark.write({ seq: at.seq, hash: at.hash }, true);
    mark.close();
  } finally {
    ledger.close();
  }
}

function etg(...args: string[]): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, ['bin/etg.js', 'ledger', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout + r.stderr };
}

/** Each read-only tool, as run on a data folder (`out`: a file outside it for the tools that write one). */
function readOnlyCommands(dir: string, out: string): string[][] {
  return [
    ['verify', '--data-dir', dir],
    ['verify', '--data-dir', dir, '--full', '--json'],
    ['export', '--data-dir', dir, '--json'],
    ['evidence', '--data-dir', dir, '--round', 'syn-3', '--out', path.join(out, 'evidence.json')],
    ['recall', '--data-dir', dir, '--station', '1'],
    ['recall', '--data-dir', dir, '--table', 'T1', '--json'],
    ['meters', '--data-dir', dir],
    ['status', '--data-dir', dir, '--json'],
    ['backup', '--data-dir', dir, '--out', path.join(out, 'backup.sqlite')],
  ];
}

describe('the ledger tools that read write nothing to the ledger they read', () => {
  it('verify, verify --full, export, evidence, recall, meters, status and backup leave every file and the schema version as they were', () => {
    const dir = folder('current');
    // The mark behind the journal, as a power cut leaves it (docs/ledger.md, "A lost WAL"): a writer's open moves it to the head.
    markBehind(dir, 5);
    const out = mkdtempSync(path.join(root, 'out-'));
    const before = snapshot(dir);
    assert.ok(before.files['ledger.sqlite.head'], 'the head mark is there to compare');
    for (const args of readOnlyCommands(dir, out)) {
      const r = etg(...args);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.out}`);
      assert.deepEqual(snapshot(dir), before, `${args.join(' ')} changed the ledger's files`);
    }
    assert.ok(existsSync(path.join(out, 'evidence.json')) && existsSync(path.join(out, 'backup.sqlite')), 'the tools wrote what they were asked to, elsewhere');
  });

  it('a ledger copied without its checkpoint key: no tool makes one beside it', () => {
    const dir = folder('keyless');
    rmSync(path.join(dir, 'ledger-checkpoint.key'));
    const before = snapshot(dir);
    for (const args of [
      ['status', '--data-dir', dir],
      ['meters', '--data-dir', dir],
      ['verify', '--data-dir', dir],
    ]) {
      const r = etg(...args);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.out}`);
      assert.deepEqual(snapshot(dir), before, `${args.join(' ')} changed the folder`);
    }
    assert.equal(existsSync(path.join(dir, 'ledger-checkpoint.key')), false);
  });

  it('a rolled-back journal: the head mark is still read and compared, and left as it was', () => {
    const dir = folder('rolled-back');
    deleteLastEntryInFile(dir);
    const before = snapshot(dir);
    const status = etg('status', '--data-dir', dir);
    assert.equal(status.code, 1, status.out);
    assert.match(status.out, /rollback/);
    const verify = etg('verify', '--data-dir', dir);
    assert.equal(verify.code, 1, verify.out);
    assert.match(verify.out, /MISMATCH: head mark: ledger rollback/);
    assert.deepEqual(snapshot(dir), before);
  });
});

describe('a ledger at an older schema is read as it is, never migrated', () => {
  for (const version of [9, 11]) {
    it(`schema ${version}: verify and verify --full pass, status and meters read it, and it stays at ${version}`, () => {
      const dir = folder(`schema-${version}`, version);
      const before = snapshot(dir);
      for (const args of [
        ['verify', '--data-dir', dir],
        ['verify', '--data-dir', dir, '--full'],
        ['status', '--data-dir', dir],
        ['meters', '--data-dir', dir],
      ]) {
        const r = etg(...args);
        assert.equal(r.code, 0, `${args.join(' ')}: ${r.out}`);
        const now = snapshot(dir);
        assert.equal(now.userVersion, version, `${args.join(' ')} migrated the file`);
        assert.deepEqual(now, before, `${args.join(' ')} changed the ledger's files`);
      }
    });
  }
});

describe('a ledger older than the tools read as it is', () => {
  it('schema 4 (before the checkpoints): refused by its version and this build, and left at 4', () => {
    const dir = folder('schema-4', 4);
    const before = snapshot(dir);
    for (const args of [
      ['verify', '--data-dir', dir],
      ['status', '--data-dir', dir],
    ]) {
      const r = etg(...args);
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.out}`);
      assert.match(r.out, new RegExp(`at schema 4, older than the oldest this build reads without migrating it \\(5; this build's is ${LATEST_VERSION}\\)`));
      assert.deepEqual(snapshot(dir), before, `${args.join(' ')} changed the ledger's files`);
    }
  });
});

describe('a ledger at a newer schema than this build', () => {
  it('every tool refuses it by its version and this build', () => {
    const dir = folder('newer');
    setUserVersionInFile(dir, LATEST_VERSION + 1);
    const out = mkdtempSync(path.join(root, 'out-'));
    const before = snapshot(dir);
    const says = new RegExp(`schema ${LATEST_VERSION + 1}, newer than this software supports \\(${LATEST_VERSION}\\)`);
    for (const args of readOnlyCommands(dir, out)) {
      const r = etg(...args);
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.out}`);
      assert.match(r.out, says, args.join(' '));
      assert.deepEqual(snapshot(dir), before, `${args.join(' ')} changed the ledger's files`);
    }
  });
});
