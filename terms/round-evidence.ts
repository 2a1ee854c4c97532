import { roundOfEntries, type RoundRecord } from './round-record.js';

// One round's evidence bundle (issue 49), assembled from journal entries alone: the kiosk's ledger
// reads them from its SQLite journal (ledger/evidence.ts), the upstream from the journal the kiosk
// synced to it (upstream/backoffice/round-evidence.ts). One assembly for both, so the two bundles of
// a round are equal byte for byte once the upstream holds the kiosk's head.

export const HASH_ALGORITHM = 'hash = SHA-256(prev_hash ‖ SHA-256(body)); genesis = SHA-256("macau-etg-ledger genesis " + terminalId)';

/**
 * One round's evidence for a dispute: the recall record, the full journal entries of the round,
 * and a chain proof — the content hash and chain hash of every entry from the round's first
 * entry to its last, starting from the hash before it. Entries of other players in between are
 * proven by their content hashes alone, not disclosed. The head and the upstream's acknowledged
 * hash let an inspector anchor the proof: the upstream holds the hash of every sequence.
 */
export interface EvidenceBundle {
  kind: 'macau-etg-round-evidence';
  version: 1;
  terminalId: string;
  exportedAt: string;
  hashAlgorithm: typeof HASH_ALGORITHM;
  round: RoundRecord;
  entries: { seq: number; body: string; contentHash: string; hash: string }[];
  proof: { prevHash: string; links: [seq: number, contentHash: string, hash: string][] };
  head: { seq: number; hash: string };
  upstreamAck: { seq: number; hash: string } | null;
  /**
   * The rule set and its authorisation on record when the round began (issue 51): the newest
   * `rules.record` at or before the round's first entry, proven by its own link (the hash before it,
   * its body's hash, its hash; the upstream holds the hash of every sequence). Absent in a journal
   * older than the record.
   */
  rules?: { seq: number; body: string; prevHash: string; contentHash: string; hash: string };
}

/** A journal entry as both ends hold it: its canonical body and its link in the chain. */
export interface ChainEntry {
  seq: number;
  body: string;
  contentHash: string;
  prevHash: string;
  hash: string;
}

/** Where a round's entries lie in the chain: what the caller reads next (the links between, the rules record before). */
export function roundSpan(round: Pick<RoundRecord, 'entrySeqs'>): { first: number; last: number } {
  // A loop, not Math.min(...seqs): a spread passes each seq as an argument, and a round of some
  // 150,000 entries (a table may journal that many under one round id) overflowed the stack.
  let first = Infinity;
  let last = -Infinity;
  for (const s of round.entrySeqs) {
    if (s < first) first = s;
    if (s > last) last = s;
  }
  return { first, last };
}

export interface EvidenceSource {
  terminalId: string;
  roundId: string;
  /** The round's entries (others are ignored): the record is built from them (`roundOfEntries`). */
  entries: readonly ChainEntry[];
  /** Every entry from the round's first to its last (`roundSpan`), in order, without a gap. */
  chain: (first: number, last: number) => Iterable<Pick<ChainEntry, 'seq' | 'contentHash' | 'prevHash' | 'hash'>>;
  /** The newest `rules.record` at or before `seq`, if the journal holds one. */
  rulesAt: (seq: number) => ChainEntry | undefined;
  head: { seq: number; hash: string };
  upstreamAck: { seq: number; hash: string } | null;
  now: Date;
}

/** A round's bundle; undefined while it has not closed (or no entry of it is given). */
export function assembleEvidence(src: EvidenceSource): EvidenceBundle | undefined {
  const round = roundOfEntries(src.roundId, src.entries);
  if (!round) return undefined;
  const { first, last } = roundSpan(round);
  const links: [number, string, string][] = [];
  let prevHash: string | undefined;
  let expect = first;
  for (const e of src.chain(first, last)) {
    if (e.seq !== expect) throw new Error(`the chain of round ${src.roundId} skips from ${expect} to ${e.seq}`);
    prevHash ??= e.prevHash;
    links.push([e.seq, e.contentHash, e.hash]);
    expect++;
  }
  if (prevHash === undefined || expect !== last + 1) throw new Error(`the chain of round ${src.roundId} stops before ${last}`);
  const bySeq = new Map(src.entries.map((e) => [e.seq, e]));
  const entries = round.entrySeqs.map((s) => {
    const e = bySeq.get(s);
    if (!e) throw new Error(`journal entry ${s} missing`);
    return { seq: e.seq, body: e.body, contentHash: e.contentHash, hash: e.hash };
  });
  const rules = src.rulesAt(first);
  return {
    kind: 'macau-etg-round-evidence',
    version: 1,
    terminalId: src.terminalId,
    exportedAt: src.now.toISOString(),
    hashAlgorithm: HASH_ALGORITHM,
    round,
    entries,
    proof: { prevHash, links },
    head: { seq: src.head.seq, hash: src.head.hash },
    upstreamAck: src.upstreamAck && { seq: src.upstreamAck.seq, hash: src.upstreamAck.hash },
    ...(rules ? { rules: { seq: rules.seq, body: rules.body, prevHash: rules.prevHash, contentHash: rules.contentHash, hash: rules.hash } } : {}),
  };
}
