import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { chainHash, genesisHash } from './chain.js';
import type { WitnessKey } from './keys.js';
import { WitnessRecord, type RecordLine } from './record.js';
import type { Witness } from './witness.js';
import type { Answer, Head } from './wire.js';

/** A new Ed25519 witness key, held in memory as a key file's would be. */
export function testKey(): WitnessKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey, store: 'file' };
}

/** A function naming a new folder (not yet made) under one temporary root, removed after the file's tests. */
export function freshDirs(prefix: string): () => string {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  after(() => rmSync(root, { recursive: true, force: true }));
  let n = 0;
  return () => path.join(root, `w${++n}`);
}

/**
 * A terminal's journal as its host would send it: each entry a note of 100 credited at one of
 * `stations` stations, so the fold (every balance and meter not zero) is as wide as a busy table's.
 */
export class Journal {
  readonly bodies: string[] = [];
  readonly links: string[] = [];
  readonly hashes: string[] = [];
  private readonly balances = new Map<string, number>();
  private readonly meters = new Map<string, number>();

  constructor(
    readonly terminal: string,
    private readonly stations: number,
  ) {}

  head(seq = this.bodies.length): Head {
    return seq === 0 ? { seq: 0, hash: genesisHash(this.terminal) } : { seq, hash: this.hashes[seq - 1] as string };
  }

  add(count: number): void {
    for (let i = 0; i < count; i++) {
      const seq = this.bodies.length + 1;
      const s = (seq % this.stations) + 1;
      const postings: [string, number][] = [
        [`cashbox:${s}:100`, 100],
        [`station:${s}:credit`, -100],
      ];
      for (const [a, v] of postings) this.balances.set(a, (this.balances.get(a) ?? 0) + v);
      this.meters.set(`station:${s}`, (this.meters.get(`station:${s}`) ?? 0) + 100);
      const body = JSON.stringify({
        v: 1,
        terminal: this.terminal,
        seq,
        type: 'bill.credit',
        payload: { station: s },
        postings,
        meters: [[`station:${s}`, 'totalIn', 100]],
      });
      const link = createHash('sha256').update(body).digest('hex');
      this.hashes.push(chainHash(this.head().hash, link));
      this.bodies.push(body);
      this.links.push(link);
    }
  }

  /** The state a checkpoint at the head states (ledger/checkpoint.ts's shape). */
  state(at = '2026-01-01T00:00:00.000Z'): string {
    const h = this.head();
    return JSON.stringify({
      v: 1,
      terminal: this.terminal,
      seq: h.seq,
      hash: h.hash,
      at,
      balances: [...this.balances],
      meters: [...this.meters].map(([scope, v]) => [scope, 'totalIn', v]),
      openBets: [],
      table: null,
    });
  }
}

export function ok(a: Answer): Answer {
  assert.equal(a.ok, true, JSON.stringify(a));
  return a;
}

export function refused(a: Answer): string {
  assert.equal(a.ok, false, JSON.stringify(a));
  return a.ok === false ? a.error : '';
}

/** `count` more entries witnessed, folded and checkpointed at their head, as the host does. */
export function play(w: Witness, j: Journal, count: number): void {
  const from = j.head();
  j.add(count);
  const links = j.links.slice(from.seq);
  ok(w.handle({ id: 1, op: 'witness', terminal: j.terminal, from, links, to: j.head() }));
  ok(w.handle({ id: 2, op: 'fold', terminal: j.terminal, from, bodies: j.bodies.slice(from.seq), to: j.head() }));
  ok(w.handle({ id: 3, op: 'checkpoint', terminal: j.terminal, ...j.head(), state: j.state() }));
}

export const lines = (file: string): RecordLine[] => new WitnessRecord(file).read();
export const archives = (dir: string) =>
  readdirSync(dir)
    .filter((f) => /^record-.+\.jsonl$/.test(f))
    .sort();
