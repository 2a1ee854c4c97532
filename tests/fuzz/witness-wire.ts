// The ledger witness's wire, fuzzed (issue 50 item 2): seeded frames, most of them requests of the
// protocol bent every way (fields swapped, numbers out of range, ids that name paths, bytes
// flipped, lines cut and joined, chunks cut anywhere), a few honest ones that extend the chain.
// They go through the witness's own line reader and `answerLine` (witness/server.ts), exactly as a
// connection's bytes do. What must hold for every frame: nothing throws; every answer is of the
// protocol (witness/wire.ts `Answer`) and carries the request's id when it had a valid one; and no
// signature is given on anything that does not extend the witness's head: every head it signs
// is checked here, with this file's own SHA-256 chain (not the witness's code), to follow from
// the head it signed before, and every checkpoint it signs to stand at that head and state the
// balances this file's own fold of the signed entries' bodies makes (a forged state is sent often).
import { createHash, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LineReader, answerLine } from '../../witness/server.js';
import { checkpointStatement, headStatement, statementSigned } from '../../witness/statement.js';
import { Answer } from '../../witness/wire.js';
import { Witness } from '../../witness/witness.js';

export interface WitnessFuzzReport {
  frames: number;
  lines: number;
  answered: Record<string, number>;
  headsSigned: number;
  checkpointsSigned: number;
}

/** mulberry32: a small seeded PRNG, so a failing seed is replayed exactly. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
/** The ledger's link, written again here from its definition (docs/ledger.md): SHA-256(prev ‖ content). */
const link = (prev: string, content: string) => sha(Buffer.concat([Buffer.from(prev, 'hex'), Buffer.from(content, 'hex')]));
const genesis = (t: string) => sha(`macau-etg-ledger genesis ${t}`);

const TERMINALS = ['T1', 'T2'];
const ODD_STRINGS = ['..', '.', '', '../../etc/passwd', 'T1/..', '\u0000', 'é', 'x'.repeat(70), '__proto__', 'constructor', '-', 'T1 ', ' T1'];
const ODD_NUMBERS = [-1, 0.5, Infinity, -0, Number.MAX_SAFE_INTEGER + 2, 2 ** 53, NaN, 1e21, -1e21];

/** The witness's head for a terminal, as this fuzz knows it from the answers alone. */
interface Known {
  seq: number;
  hash: string;
}

export function fuzzWitnessWire(frames: number, seed: number): WitnessFuzzReport {
  const rnd = prng(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)] as T;
  // On tmpfs where there is one: each head the witness signs is fsynced.
  const dir = mkdtempSync(path.join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'witness-fuzz-'));
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  let now = Date.parse('2026-01-01T00:00:00Z');
  const witness = new Witness({ dir, key: { privateKey, publicKey, store: 'file' }, clock: () => new Date(now), monotonic: () => now });
  const known = new Map<string, Known>(TERMINALS.map((t) => [t, { seq: 0, hash: genesis(t) }]));
  const report: WitnessFuzzReport = { frames: 0, lines: 0, answered: {}, headsSigned: 0, checkpointsSigned: 0 };
  const reader = new LineReader();
  let nextId = 1;

  const randomHex = () => sha(String(rnd()));
  /** Every body made, by its content hash; and per terminal the bodies of the chain the witness signed. */
  const bodyOf = new Map<string, string>();
  const signedBodies = new Map<string, string[]>(TERMINALS.map((t) => [t, []]));
  const signedHashes = new Map<string, string[]>(TERMINALS.map((t) => [t, []]));
  /** Where the witness's fold stands, as its answers said (it only moves to its head). */
  const foldedAt = new Map<string, number>(TERMINALS.map((t) => [t, 0]));
  /** The balances of the signed chain after each entry, this fuzz's own fold, kept as it grows. */
  const balanceSteps = new Map<string, Map<string, number>[]>(TERMINALS.map((t) => [t, []]));
  /** An entry's body as the ledger writes it (witness/effects.ts reads it): a note credited, or nothing moved. */
  function body(t: string, seq: number): string {
    const amount = 100 * (1 + int(50));
    const money =
      rnd() < 0.5
        ? {
            type: 'bill.credit',
            postings: [
              ['cashbox:1:100', amount],
              ['station:1:credit', -amount],
            ],
          }
        : { type: 'door.open', postings: [] };
    const b = JSON.stringify({ v: 1, terminal: t, seq, payload: { n: rnd() }, meters: [], ...money });
    bodyOf.set(sha(b), b);
    return b;
  }
  function honestExtension(t: string): Record<string, unknown> {
    const k = known.get(t) as Known;
    const links = Array.from({ length: 1 + int(3) }, (_, i) => sha(body(t, k.seq + 1 + i)));
    let h = k.hash;
    for (const l of links) h = link(h, l);
    return { op: 'witness', terminal: t, from: { ...k }, links, to: { seq: k.seq + links.length, hash: h } };
  }
  /** This fuzz's own fold of the signed chain's bodies up to `seq`: the balances not zero, by account. */
  function balancesAt(t: string, seq: number): [string, number][] {
    if (seq === 0) return [];
    const steps = balanceSteps.get(t) as Map<string, number>[];
    const bodies = signedBodies.get(t) as string[];
    while (steps.length < seq) {
      const m = new Map(steps[steps.length - 1] ?? []);
      for (const [a, v] of (JSON.parse(bodies[steps.length] as string) as { postings: [string, number][] }).postings) m.set(a, (m.get(a) ?? 0) + v);
      steps.push(m);
    }
    return [...(steps[seq - 1] as Map<string, number>)].filter(([, v]) => v !== 0).sort(([a], [b]) => (a < b ? -1 : 1));
  }
  function state(t: string, k: Known, forged: boolean): string {
    const balances = balancesAt(t, k.seq);
    if (forged) balances.push(['house', 1 + int(1_000_000)]);
    return JSON.stringify({ v: 1, terminal: t, seq: k.seq, hash: k.hash, at: new Date(now).toISOString(), balances, meters: [], openBets: [], table: null });
  }
  function base(): Record<string, unknown> {
    const t = pick(TERMINALS);
    const k = known.get(t) as Known;
    switch (int(7)) {
      case 0:
        return { op: 'hello' };
      case 1:
        return { op: 'head', terminal: rnd() < 0.5 ? t : pick(ODD_STRINGS) };
      case 2:
        return honestExtension(t);
      case 3: {
        // A fork: links that chain, from an older point or from the head with a wrong `to`.
        const e = honestExtension(t);
        const from = rnd() < 0.5 ? { seq: Math.max(0, k.seq - 1 - int(3)), hash: randomHex() } : { ...k };
        return { ...e, from, to: rnd() < 0.5 ? { seq: (e.to as Known).seq, hash: randomHex() } : e.to };
      }
      case 4:
        if (rnd() < 0.5) {
          // The witness's fold brought up to its head, from genesis or from a point a little back.
          const from = rnd() < 0.7 ? (foldedAt.get(t) as number) : Math.max(0, k.seq - int(4));
          const bodies = (signedBodies.get(t) as string[]).slice(from, k.seq);
          return { op: 'fold', terminal: t, from: { seq: from, hash: chainHashAt(t, from) }, bodies, to: { ...k } };
        }
        return {
          op: 'checkpoint',
          terminal: t,
          seq: rnd() < 0.8 ? k.seq : k.seq + int(5) - 2,
          hash: rnd() < 0.8 ? k.hash : randomHex(),
          state: state(t, k, rnd() < 0.4),
        };
      case 5:
        return { op: pick(['witness', 'checkpoint', 'fold', 'folded', 'sign', 'HEAD', '']), terminal: t, links: [], bodies: [], from: k, to: k };
      default:
        return honestExtension(t);
    }
  }
  function bend(r: Record<string, unknown>): Record<string, unknown> {
    const keys = Object.keys(r);
    const out: Record<string, unknown> = { ...r };
    switch (int(8)) {
      case 0:
        out[pick(keys)] = pick<unknown>([...ODD_STRINGS, ...ODD_NUMBERS, null, [], {}, true, { seq: 1 }]);
        break;
      case 1:
        delete out[pick(keys)];
        break;
      case 2:
        out[pick(['extra', '__proto__', 'constructor', 'id'])] = pick<unknown>([1, 'x', null, { a: 1 }]);
        break;
      case 3:
        out.terminal = pick(ODD_STRINGS);
        break;
      case 4:
        if (Array.isArray(r.links)) out.links = [...(r.links as string[]), pick(['zz', randomHex().toUpperCase(), randomHex().slice(1), ''])];
        break;
      case 5:
        if (typeof r.to === 'object' && r.to) out.to = { ...(r.to as object), seq: pick(ODD_NUMBERS) };
        break;
      case 6:
        out.id = pick(ODD_NUMBERS);
        break;
      default:
        break;
    }
    return out;
  }
  /** The hash after entry `seq` of the signed chain (this fuzz's own SHA-256 chain, kept as it grows). */
  function chainHashAt(t: string, seq: number): string {
    const hashes = signedHashes.get(t) as string[];
    let h = hashes[hashes.length - 1] ?? genesis(t);
    const bodies = signedBodies.get(t) as string[];
    while (hashes.length < bodies.length) hashes.push((h = link(h, sha(bodies[hashes.length] as string))));
    return seq === 0 ? genesis(t) : (hashes[seq - 1] as string);
  }
  /** Byte-level damage to a line: flipped, cut, joined with another, nested deep. */
  function damage(line: string): string {
    switch (int(7)) {
      case 6:
        return line.replace(/:(\d+)/, pick([':1e400', ':-0', ':0x10', ':01', ':1.0000000000000001']));
      case 0: {
        const i = int(line.length);
        return line.slice(0, i) + String.fromCharCode(int(128)) + line.slice(i + 1);
      }
      case 1:
        return line.slice(0, int(line.length));
      case 2:
        return `${line}${line}`;
      case 3:
        return `${'['.repeat(1 + int(5000))}${line}`;
      case 4:
        return line.replace(/"T[12]"/, `"${pick(['..', '.', '../x'])}"`);
      default:
        return `\r${line}\t`;
    }
  }

  try {
    for (let f = 0; f < frames; f++) {
      now += 1 + int(50);
      const id = rnd() < 0.95 ? nextId++ : undefined;
      let req: Record<string, unknown> = { ...(id !== undefined ? { id } : {}), ...base() };
      if (rnd() < 0.5) req = bend(req);
      let line = JSON.stringify(req);
      if (rnd() < 0.2) line = damage(line);
      report.frames++;
      // Cut the bytes anywhere, as a socket delivers them.
      const text = `${line}\n`;
      const cut = int(text.length + 1);
      for (const chunk of [text.slice(0, cut), text.slice(cut)]) {
        const { lines, overflow } = reader.push(chunk);
        if (overflow) throw new Error(`frame ${f}: a line under the limit overflowed`);
        for (const l of lines) {
          report.lines++;
          check(l, answerLine(witness, l).answer);
        }
      }
    }
  } finally {
    witness.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return report;

  function check(line: string, answer: unknown): void {
    const parsed = Answer.safeParse(answer);
    if (!parsed.success) throw new Error(`an answer out of protocol to ${line.slice(0, 200)}: ${JSON.stringify(answer).slice(0, 300)}`);
    const a = parsed.data;
    const kind = a.ok ? a.op : a.error;
    report.answered[kind] = (report.answered[kind] ?? 0) + 1;
    if (!a.ok) return;
    // An answer that is not a refusal: the line was a request, and is checked as the witness read it.
    const req = JSON.parse(line) as Record<string, unknown>;
    if (req.id !== a.id) throw new Error(`an answer with id ${a.id} to a request with id ${String(req.id)}: ${line.slice(0, 200)}`);
    if (a.op === 'witness') {
      const t = req.terminal as string;
      const k = known.get(t);
      const from = req.from as Known;
      const links = req.links as string[];
      const to = req.to as Known;
      if (!k) throw new Error(`signed a head of ${t}, which no honest request named`);
      if (!statementSigned(publicKey, headStatement(a.head), a.head.signature)) throw new Error('a head whose signature does not verify');
      if (a.head.terminal !== t || a.head.seq !== to.seq || a.head.hash !== to.hash) throw new Error(`signed another head than asked: ${line}`);
      const retry = to.seq === k.seq && to.hash === k.hash;
      let h = from.hash;
      for (const l of links) h = link(h, l);
      const extends_ = from.seq === k.seq && from.hash === k.hash && to.seq === k.seq + links.length && h === to.hash;
      if (!retry && !extends_) throw new Error(`signed a head that does not extend its own (${k.seq}): ${line}`);
      if (!retry) {
        const bodies = links.map((l) => bodyOf.get(l));
        if (bodies.some((b) => b === undefined)) throw new Error(`signed a head whose entries this fuzz never made: ${line.slice(0, 200)}`);
        (signedBodies.get(t) as string[]).push(...(bodies as string[]));
      }
      known.set(t, { seq: to.seq, hash: to.hash });
      report.headsSigned++;
    } else if (a.op === 'checkpoint') {
      const t = req.terminal as string;
      const k = known.get(t);
      if (!k || req.seq !== k.seq || req.hash !== k.hash) throw new Error(`signed a checkpoint away from its head: ${line}`);
      const text = req.state as string;
      if (!statementSigned(publicKey, checkpointStatement(t, k.seq, k.hash, sha(text)), a.signature))
        throw new Error('a checkpoint signature that does not verify');
      // The state signed must be the one the signed chain's bodies make, by this fuzz's own fold.
      const stated = (JSON.parse(text) as { balances: [string, number][] }).balances.filter(([, v]) => v !== 0);
      if (JSON.stringify(stated) !== JSON.stringify(balancesAt(t, k.seq))) throw new Error(`signed a state it did not derive: ${text.slice(0, 300)}`);
      report.checkpointsSigned++;
    } else if (a.op === 'fold') {
      const k = known.get(req.terminal as string);
      if (!k || a.folded.seq > k.seq) throw new Error(`folded past its head: ${line.slice(0, 200)}`);
      if (a.folded.seq === k.seq) foldedAt.set(req.terminal as string, k.seq);
    }
  }
}

export function describeWitnessFuzz(r: WitnessFuzzReport): string {
  const answers = Object.entries(r.answered)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return `${r.frames} frames (${r.lines} lines); answers: ${answers}; ${r.headsSigned} heads and ${r.checkpointsSigned} checkpoints signed, each checked to extend the witness's head`;
}
