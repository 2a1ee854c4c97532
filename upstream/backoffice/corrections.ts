// The day's voids and corrections as the report lists them: one line each, the article that decided
// it beside its detail. Read from the journal's rows of the day (gaming-day.ts's query).

/** One line of the day's voids and corrections (the report's last section). */
export interface Correction {
  terminalId: string;
  seq: number;
  ts: string;
  type: string;
  /**
   * What it was: a round voided (`round.void`), a dealing error corrected, one that voided its
   * round (the `round.void`'s line, carrying its `misread`'s detail), or a hold lifted by a "void"
   * that voided no round (a `misread` resolved `round-void` after its round was settled and paid,
   * in the results phase: no `round.void` of that round exists).
   */
  kind: 'void' | 'corrected' | 'error-void' | 'hold-lifted';
  roundId: string | null;
  /**
   * The article that decided it (a void's `rule`, a correction's `article`); empty when none did (a
   * void for a device's fault names no rule: its reason is in `detail`, never in the article's column).
   */
  article: string;
  detail: string;
  /**
   * The misreads' details left out of a void's line past MAX_MERGED_DETAILS (0: none). A table reusing
   * one round id could journal thousands of misreads before its void, each of whose detail joined
   * that one line (6,000 made it 72 kB; nothing bounded it).
   */
  detailsCut: number;
}

/** The most misreads' details one void's line carries; the rest are counted (`detailsCut`), each in its table's journal. */
export const MAX_MERGED_DETAILS = 20;

export type CorrectionRow = { terminal_id: string; seq: number; ts: Date; type: string; payload: unknown; voided: boolean };

/**
 * The day's voids and corrections, one line each. A void that lifted a hold for a dealing error is
 * journalled as the hold's `misread` (resolved `round-void`) and then the `round.void`: one line,
 * the void's, a dealing error that voided its round, with the misread's detail. A misread resolved
 * `round-void` whose round no `round.void` ended (a hold lifted after the round was settled and
 * paid) voided nothing: said so. One whose `round.void` falls in another day keeps its own line.
 */
export function correctionsOf(rows: readonly CorrectionRow[]): Correction[] {
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  // A payload that is no object (rows an earlier version stored: ingest refuses them now) says nothing.
  const fields = (p: unknown): Record<string, unknown> => (p !== null && typeof p === 'object' && !Array.isArray(p) ? (p as Record<string, unknown>) : {});
  const round = (r: CorrectionRow) => `${r.terminal_id}\u0000${text(fields(r.payload).roundId)}`;
  const listedVoids = new Set(rows.filter((r) => r.type === 'round.void' && text(fields(r.payload).roundId)).map(round));
  const merged = new Map<string, string[]>();
  const out: Correction[] = [];
  for (const r of rows) {
    const p = fields(r.payload);
    const detail = [text(p.reason), text(p.correction), text(p.detail), text(p.uncorrectable)].filter(Boolean);
    const lifted = r.type === 'misread' && p.resolution === 'round-void';
    if (lifted && r.voided && listedVoids.has(round(r))) {
      // Pushed, not spread: a copy per misread of one round id made the list quadratic.
      const more = merged.get(round(r)) ?? [];
      merged.set(round(r), more);
      more.push(...detail);
      continue;
    }
    const kind = r.type === 'round.void' ? 'void' : !lifted ? 'corrected' : r.voided ? 'error-void' : 'hold-lifted';
    out.push({
      terminalId: r.terminal_id,
      seq: Number(r.seq),
      ts: new Date(r.ts).toISOString(),
      type: r.type,
      kind,
      roundId: text(p.roundId) || null,
      article: text(p.rule) || text(p.article),
      detail: detail.join('; '),
      detailsCut: 0,
    });
  }
  // The misreads come before their void (the same transaction): their detail joins the void's line.
  for (const l of out) {
    const more = l.type === 'round.void' ? merged.get(`${l.terminalId}\u0000${l.roundId ?? ''}`) : undefined;
    if (more) {
      const detail = [l.detail, ...more.slice(0, MAX_MERGED_DETAILS)].filter(Boolean).join('; ');
      Object.assign(l, { kind: 'error-void', detail, detailsCut: Math.max(0, more.length - MAX_MERGED_DETAILS) });
    }
  }
  return out;
}

/**
 * The most voids and corrections of one table a day's report lists. An honest table has a few a day;
 * a table whose key leaked could journal thousands, and every one was a line of the report's JSON,
 * page and CSV (10,000 made the answer megabytes). Each is evidence, so none is dropped unsaid: a
 * table past it has its first ones listed (in its journal's order) and its count stated beside
 * them (`correctionsCut`); every one stays in its journal. Per table, so one table's thousands never
 * push another's out.
 */
export const MAX_TABLE_CORRECTIONS = 200;

/** A table whose voids and corrections of the day are more than the report lists: how many are listed, of how many. */
export interface CorrectionsCut {
  terminalId: string;
  listed: number;
  total: number;
}

/** The lines the report lists (at most `max` a table, in the order given) and the tables cut. */
export function listedCorrections(lines: readonly Correction[], max = MAX_TABLE_CORRECTIONS): { corrections: Correction[]; cut: CorrectionsCut[] } {
  const counts = new Map<string, number>();
  const corrections: Correction[] = [];
  for (const l of lines) {
    const n = (counts.get(l.terminalId) ?? 0) + 1;
    counts.set(l.terminalId, n);
    if (n <= max) corrections.push(l);
  }
  const cut = [...counts].filter(([, total]) => total > max).map(([terminalId, total]) => ({ terminalId, listed: max, total }));
  return { corrections, cut: cut.sort((a, b) => (a.terminalId < b.terminalId ? -1 : a.terminalId > b.terminalId ? 1 : 0)) };
}
