import type { SettlementLine } from '../engine/settlement/settlement-line.js';

/** Lines as the round tools print them: the rule, then the choices the line was settled under and their authorisation reference. */
export function linesWithMarks<L extends SettlementLine>(lines: readonly L[]): (L & { marks: string })[] {
  return lines.map((l) => ({
    ...l,
    marks: l.choices?.length ? `  [${l.choices.join(', ')}${l.authorisation ? `; authorised ${l.authorisation}` : ''}]` : '',
  }));
}
