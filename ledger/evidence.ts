import { z } from 'zod';
import { chainHash, genesisHash, sha256Hex } from './canonical.js';
import type { Ledger } from './ledger.js';
import { ruleRecordAt } from './journal-queries.js';
import { syncAnchor } from './outbox.js';
import type { RoundRecord } from './recall.js';

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
  hashAlgorithm: 'hash = SHA-256(prev_hash ‖ SHA-256(body)); genesis = SHA-256("macau-etg-ledger genesis " + terminalId)';
  round: RoundRecord;
  entries: { seq: number; body: string; contentHash: string; hash: string }[];
  proof: { prevHash: string; links: [seq: number, contentHash: string, hash: string][] };
  head: { seq: number; hash: string };
  upstreamAck: { seq: number; hash: string } | null;
  /**
   * The rule set and its authorisation on record when the round began (issue 51): the newest
   * `rules.record` before the round's first entry, proven by its own link (the hash before it, its
   * body's hash, its hash; the upstream holds the hash of every sequence). Absent in a journal
   * older than the record.
   */
  rules?: { seq: number; body: string; prevHash: string; contentHash: string; hash: string };
}

export function evidenceBundle(ledger: Ledger, roundId: string, now = new Date()): EvidenceBundle | undefined {
  const round = ledger.rounds.record(roundId);
  if (!round) return undefined;
  const seqs = round.entrySeqs;
  const first = Math.min(...seqs);
  const last = Math.max(...seqs);
  const prevHash = first === 1 ? genesisHash(ledger.terminalId) : (ledger.entry(first - 1)?.hash ?? '');
  const links: [number, string, string][] = [];
  for (const e of ledger.entries(first, last)) links.push([e.seq, e.contentHash, e.hash]);
  const entries = seqs.map((s) => {
    const e = ledger.entry(s);
    if (!e) throw new Error(`journal entry ${s} missing`);
    return { seq: e.seq, body: e.body, contentHash: e.contentHash, hash: e.hash };
  });
  const anchor = syncAnchor(ledger);
  const rules = ruleRecordAt(ledger, first)?.entry;
  return {
    kind: 'macau-etg-round-evidence',
    version: 1,
    terminalId: ledger.terminalId,
    exportedAt: now.toISOString(),
    hashAlgorithm: 'hash = SHA-256(prev_hash ‖ SHA-256(body)); genesis = SHA-256("macau-etg-ledger genesis " + terminalId)',
    round,
    entries,
    proof: { prevHash, links },
    head: ledger.headOf(),
    upstreamAck: anchor.ackedSeq > 0 ? { seq: anchor.ackedSeq, hash: anchor.ackedHash } : null,
    ...(rules ? { rules: { seq: rules.seq, body: rules.body, prevHash: rules.prevHash, contentHash: rules.contentHash, hash: rules.hash } } : {}),
  };
}

/** Checks a bundle on its own (no database): bodies hash to their links, the links chain. */
export function verifyEvidence(bundle: EvidenceBundle): { ok: boolean; problems: string[] } {
  const problems: string[] = [];
  let prev = bundle.proof.prevHash;
  let expect = bundle.proof.links[0]?.[0] ?? 0;
  const bySeq = new Map<number, [number, string, string]>();
  for (const link of bundle.proof.links) {
    const [seq, content, hash] = link;
    if (seq !== expect) problems.push(`proof skips to seq ${seq}`);
    expect = seq + 1;
    if (chainHash(prev, content) !== hash) problems.push(`link ${seq} does not chain`);
    prev = hash;
    bySeq.set(seq, link);
  }
  if (bundle.proof.links[0]?.[0] === 1 && bundle.proof.prevHash !== genesisHash(bundle.terminalId)) problems.push('seq 1 does not start at genesis');
  for (const e of bundle.entries) {
    const link = bySeq.get(e.seq);
    if (!link) problems.push(`entry ${e.seq} is outside the proof`);
    else if (link[1] !== sha256Hex(e.body) || link[2] !== e.hash) problems.push(`entry ${e.seq} does not match its link`);
    const body = JSON.parse(e.body) as { terminal?: string; seq?: number; payload?: { roundId?: string } };
    if (body.terminal !== bundle.terminalId || body.seq !== e.seq) problems.push(`entry ${e.seq} names another terminal or seq`);
    if (body.payload?.roundId !== bundle.round.roundId) problems.push(`entry ${e.seq} is not of round ${bundle.round.roundId}`);
  }
  if (bundle.rules) problems.push(...ruleProblems(bundle.rules, bundle));
  if (bundle.head.seq === (bundle.proof.links.at(-1)?.[0] ?? -1) && bundle.head.hash !== prev) problems.push('head hash does not match the proof');
  return { ok: problems.length === 0, problems };
}

const RuleRecordHead = z.object({ terminal: z.string(), seq: z.number(), type: z.literal('rules.record') });

/** The rule record's own link: its body hashes to it, it chains from the hash before it, it is this terminal's record from before the round. */
function ruleProblems(r: NonNullable<EvidenceBundle['rules']>, bundle: EvidenceBundle): string[] {
  const out: string[] = [];
  if (sha256Hex(r.body) !== r.contentHash || chainHash(r.prevHash, r.contentHash) !== r.hash) out.push(`rule record ${r.seq} does not match its link`);
  const body = RuleRecordHead.safeParse(JSON.parse(r.body));
  if (!body.success || body.data.terminal !== bundle.terminalId || body.data.seq !== r.seq)
    out.push(`rule record ${r.seq} is not this terminal's rules.record`);
  if (r.seq > (bundle.proof.links[0]?.[0] ?? 0)) out.push(`rule record ${r.seq} is after the round began`);
  return out;
}
