/** About what one row holds across the screen: a Chinese character counts twice a Latin letter. */
const ROW_WIDTH = 132;
const weight = (ch: string) => (/[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]/.test(ch) ? 2 : 1);

/** Marks a Chinese row never starts with (they close what went before) and never ends with (they open what follows). */
const NO_START = /[，。、；：？！）」』】》〉…·,.;:?!)\]]/;
const NO_END = /[（「『【《〈([]/;

/**
 * Where to cut `text` at or before `cut` so that the next row does not start with a closing mark
 * nor this one end with an opening mark: the characters around move to the next row together
 * (Chinese line breaking, as a printed page does). Never before the row's first half: a run of
 * marks longer than that is cut where it falls.
 */
function keepMarks(text: string, cut: number): number {
  const chars = [...text.slice(0, cut)];
  let n = chars.length;
  const next = () => [...text.slice(chars.slice(0, n).join('').length)][0] ?? '';
  while (n > chars.length / 2 && (NO_START.test(next()) || NO_END.test(chars[n - 1] ?? ''))) n--;
  return n > chars.length / 2 ? chars.slice(0, n).join('').length : cut;
}

/**
 * A long line as as many rows as it takes (at spaces where it can), the rows after the first
 * indented under it: nothing a page lists is cut off at the screen's edge.
 */
export function wrapRow(text: string, width = ROW_WIDTH): string[] {
  const indent = (/^ */.exec(text)?.[0] ?? '') + '    ';
  const out: string[] = [];
  let rest = text;
  let room = width;
  while (rest.length > 0) {
    let used = 0;
    let cut = 0;
    let lastSpace = -1;
    for (const ch of rest) {
      if (used + weight(ch) > room) break;
      used += weight(ch);
      cut += ch.length;
      if (ch === ' ') lastSpace = cut;
    }
    if (cut >= rest.length) {
      out.push(rest);
      break;
    }
    const at = lastSpace > room / 2 ? lastSpace : keepMarks(rest, cut);
    out.push(rest.slice(0, at).trimEnd());
    rest = indent + rest.slice(at).trimStart();
    room = width;
  }
  return out.length > 0 ? out : [''];
}

/**
 * A line shortened for a list to what one row holds (a Chinese character counted double, as
 * `wrapRow` counts), marked as such (the whole of it is in the export). Before 7 December it
 * counted characters: a Chinese row ran to twice the row's width, off the screen.
 */
export function shorten(text: string, n = ROW_WIDTH): string {
  let used = 0;
  let cut = 0;
  for (const ch of text) {
    used += weight(ch);
    if (used > n) break;
    cut += ch.length;
  }
  if (cut >= text.length) return text;
  // Room for the mark: the characters taken back until it fits.
  let kept = text.slice(0, cut);
  while (kept.length > 0 && [...kept].reduce((w, ch) => w + weight(ch), 0) + 1 > n) kept = [...kept].slice(0, -1).join('');
  return `${kept}…`;
}

/** The value after `current` in `list`, round again after the last: a button that steps through choices. */
export const cycle = <T>(list: readonly T[], current: T): T => list[(list.indexOf(current) + 1) % list.length] as T;
