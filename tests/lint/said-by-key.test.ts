import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

// What the host says to a person reaches the screen as a key of the catalogues and its
// parameters, never as the host's own English (docs/service-mode.md, "A refusal in the screen's
// language" and "A fault's detail"). Two places the host used to write English sentences that a
// technician then read on the service screen in every language:
// - a service-mode refusal without a `notice` was shown as `service.failed.<code>` with its
//   `detail` as it is (the acceptor's note test once said `service-disable, tilt:bill-jam`); the
//   notice is now required by the type (host/service/service-backend.ts), and `detail` is the
//   log's: still, it passes on a reason it was handed (`r.reason`, `e.message`), never words of its own;
// - a fault's `detail` (`tilts.raise(kind, { detail })`) is journalled and shown on the Status
//   page and in the event log: words the host writes itself go in `say` (a `tiltDetail.*` key,
//   locales/said.ts `tiltDetailSaid`), and `detail` only passes on a device's or a checker's own
//   text (`e.reason`, `problems.join('; ')`), never a literal with words in it (`jam in the …`).

const root = path.resolve(import.meta.dirname, '../..');

/** A refusal result written in place: `{ ok: false, code: …, detail: … }`, up to its closing brace (no nested object before `detail`). */
const RESULT = /\{\s*ok:\s*false,\s*code:[^{}]*?detail:\s*([^,}\n]+)[^}]*\}/g;

/** The refusals of `text` that would show the host's own words: the `detail` expressions of those without a `notice`. */
export function refusalsInEnglish(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(RESULT)) {
    const [whole, detail = ''] = m;
    if (/\bnotice\b/.test(whole)) continue;
    const expr = detail.trim();
    if (/^['"`]/.test(expr) || /\.join\s*\(/.test(expr) || /\+\s*['"`]|['"`]\s*\+/.test(expr)) found.push(expr);
  }
  return found;
}

/**
 * The literal text in a piece of code: every string's and template's characters (a template's
 * `${…}` read as code, so a template nested in it is read too), the code itself left out.
 */
export function literalText(code: string): string[] {
  const out: string[] = [];
  let i = 0;
  /** Reads code until `end` (a `}` closing a template's `${`), collecting the literals in it. */
  const readCode = (end: string | null): void => {
    let depth = 0;
    while (i < code.length) {
      const c = code[i]!;
      if (c === "'" || c === '"') {
        const close = code.indexOf(c, i + 1);
        const stop = close < 0 ? code.length : close;
        out.push(code.slice(i + 1, stop));
        i = stop + 1;
      } else if (c === '`') {
        i++;
        readTemplate();
      } else if (c === '{') {
        depth++;
        i++;
      } else if (c === '}') {
        if (depth === 0 && end === '}') {
          i++;
          return;
        }
        depth--;
        i++;
      } else i++;
    }
  };
  const readTemplate = (): void => {
    let text = '';
    while (i < code.length) {
      const c = code[i]!;
      if (c === '\\') {
        text += code.slice(i, i + 2);
        i += 2;
      } else if (c === '`') {
        i++;
        break;
      } else if (c === '$' && code[i + 1] === '{') {
        i += 2;
        readCode('}');
      } else {
        text += c;
        i++;
      }
    }
    out.push(text);
  };
  readCode(null);
  return out;
}

/** The end of the expression that starts at `from` in `code`: the first `,` or closing bracket outside any bracket, string or template. */
function expressionEnd(code: string, from: number): number {
  let depth = 0;
  for (let i = from; i < code.length; i++) {
    const c = code[i]!;
    if (c === "'" || c === '"') i = Math.max(i, code.indexOf(c, i + 1));
    else if (c === '`') {
      // Skip the template, its `${…}` included (nested templates counted).
      let nest = 0;
      for (i++; i < code.length; i++) {
        if (code[i] === '\\') i++;
        else if (code[i] === '$' && code[i + 1] === '{') nest++;
        else if (code[i] === '}' && nest > 0) nest--;
        else if (code[i] === '`' && nest === 0) break;
      }
    } else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) {
      if (depth === 0) return i;
      depth--;
    } else if (c === ',' && depth === 0) return i;
  }
  return code.length;
}

/**
 * The `detail` expressions given to a fault's raise in `text` (`.raise(kind, { …, detail: … })`,
 * `.raiseFault(…)`) that hold words of the host's own, and the why of a fault's clear
 * (`.conditionGone(kind, station, why)`, journalled in `tilt.clear`) that does.
 */
export function faultDetailsInEnglish(text: string): string[] {
  const found: string[] = [];
  const worded = (expr: string) => literalText(expr).some((s) => /[A-Za-z]{2,}/.test(s));
  for (const m of text.matchAll(/\.raise(?:Fault)?\s*\(/g)) {
    const start = (m.index ?? 0) + m[0].length;
    const call = text.slice(start, callEnd(text, start));
    for (const d of call.matchAll(/\bdetail\s*:/g)) {
      const from = (d.index ?? 0) + d[0].length;
      const expr = call.slice(from, expressionEnd(call, from)).trim();
      if (worded(expr)) found.push(expr);
    }
  }
  for (const m of text.matchAll(/\.conditionGone\s*\(/g)) {
    // The kind (a code) and the station first; anything after them says why, and only by key.
    const why = callArguments(text, (m.index ?? 0) + m[0].length).slice(2);
    found.push(...why.filter((expr) => !/^tiltDetailSaid\s*\(\s*'[A-Za-z]+'/.test(expr) && worded(expr)));
  }
  return found;
}

/** The top-level arguments of a call whose arguments start at `from`, each trimmed. */
function callArguments(code: string, from: number): string[] {
  const out: string[] = [];
  let at = from;
  while (at < code.length) {
    const end = expressionEnd(code, at);
    const arg = code.slice(at, end).trim();
    if (arg) out.push(arg);
    if (end >= code.length || code[end] === ')') break;
    at = end + 1;
  }
  return out;
}

/** The index of the `)` closing a call whose arguments start at `from`. */
function callEnd(code: string, from: number): number {
  let at = from;
  while (at < code.length) {
    const end = expressionEnd(code, at);
    if (end >= code.length || code[end] === ')') return end;
    at = end + 1;
  }
  return code.length;
}

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'testing') sources(rel, out);
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) out.push(rel);
  }
  return out;
}

describe("service-mode refusals say a key, never the host's own English", () => {
  it('finds a refusal with words of its own, and passes one said by key or passing a reason on', () => {
    const own = [
      "return { ok: false, code: 'inhibited', detail: inhibitedBy.join(', ') };",
      "return { ok: false, code: 'refused', detail: 'not their own lock' };",
      'return { ok: false, code: "refused", detail: `a ${role} may not` };',
      "return { ok: false, code: 'refused', detail: 'station ' + n };",
    ];
    for (const code of own) assert.equal(refusalsInEnglish(code).length, 1, code);
    const fine = [
      "return { ok: false, code: 'refused', detail: 'not their own lock', notice: { key: 'service.failed.samePerson', values: {} } };",
      "return r.say ? refusedBy(r.say) : { ok: false, code: 'refused', detail: r.reason };",
      "if (e instanceof AccountError) return { ok: false, code: 'refused', detail: e.message };",
      "return refusedBy(serviceSaid('deviceInhibited', { station, causes: inhibitedBy.join(' ') }), 'inhibited');",
    ];
    for (const code of fine) assert.deepEqual(refusalsInEnglish(code), [], code);
  });

  it('holds in host/service', () => {
    const files = sources('host/service');
    assert.ok(files.includes('host/service/backend/device-tests.ts'), 'the scan reaches the backend');
    const found = files.flatMap((rel) => refusalsInEnglish(readFileSync(path.join(root, rel), 'utf8')).map((expr) => `${rel}: detail ${expr}`));
    assert.deepEqual(found, [], 'say it by a serviceRefusal.* key (serviceSaid, refusedBy: host/service/refusal-words.ts)');
  });
});

describe("a fault's detail the host words itself is said by key", () => {
  it('reads the literals of code, templates nested in templates too', () => {
    assert.deepEqual(literalText('f(\'a\', "b")'), ['a', 'b']);
    assert.deepEqual(literalText("`jam in the ${e.where}${e.note ? `, note ${e.note.x}` : ''}`"), [', note ', '', 'jam in the ']);
  });

  it('finds a detail with words of its own in a raise, and passes one passed on or said by key', () => {
    const own = [
      "tilts.raise('bill-jam', { ...at, detail: `jam in the ${e.where}${e.note ? `, note ${e.note.denomination}` : ''}` });",
      "tilts.raise('bill-failure', { ...at, detail: `${e.reason}${e.code !== undefined ? ` (code ${e.code})` : ''}` });",
      "this.o.tilts.raise('disk-low', {\n  detail: `${mib(space.free)} MiB free of ${mib(space.total)} MiB`,\n});",
      "tilts.raise('table-closed', { detail: 'closed in service mode by ' + who });",
      "this.o.backend.sessions.raiseFault('service-sign-in-burst', { detail: 'PINs tried faster than one connection may' });",
    ];
    for (const code of own) assert.equal(faultDetailsInEnglish(code).length, 1, code);
    const fine = [
      "tilts.raise('bill-acceptor-lost', { ...at, detail: e.reason });",
      "tilts.raise('ledger-integrity', { detail: report.problems.slice(0, 5).join('; ') });",
      "tilts.raise('bill-jam', { ...at, say: tiltDetailSaid('billJam', { where: e.where }) });",
      "tilts.raise('sas-link-down', { station, detail: `${s.sas?.link} ${e.reason}${problem ? `: ${problem}` : ''}`.slice(0, 400) });",
      'link.machine.raise(EXC.systemValidationRequest);',
      "tilts.raise('stacker-full', at); const detail = 'the code after the call is not its argument';",
    ];
    for (const code of fine) assert.deepEqual(faultDetailsInEnglish(code), [], code);
  });

  it("finds a fault's clear whose why holds words of its own, and passes one said by key", () => {
    const own = [
      "tilts.conditionGone('card-hold', undefined, 'hold resolved');",
      "this.d.tilts.conditionGone('sas-aft-locked', station, 'the host started again');",
      "else if (this.low) this.o.tilts.conditionGone('disk-low', undefined, `${mib(space.free)} MiB free`);",
    ];
    for (const code of own) assert.equal(faultDetailsInEnglish(code).length, 1, code);
    const fine = [
      "tilts.conditionGone('card-hold', undefined, tiltDetailSaid('holdResolved'));",
      "this.d.tilts.conditionGone('sas-aft-locked', this.d.station, tiltDetailSaid(why));",
      "tilts.conditionGone('stacker-removed', station);",
      "this.o.tilts.conditionGone('disk-low', undefined, said);",
    ];
    for (const code of fine) assert.deepEqual(faultDetailsInEnglish(code), [], code);
  });

  it('holds in host/ and the command-line tools', () => {
    const files = [...sources('host'), ...sources('cli')];
    assert.ok(files.includes('host/tilts/tilt-sources.ts'), 'the scan reaches the fault sources');
    const found = files.flatMap((rel) => faultDetailsInEnglish(readFileSync(path.join(root, rel), 'utf8')).map((expr) => `${rel}: detail ${expr}`));
    assert.deepEqual(found, [], "say it by a tiltDetail.* key (tiltDetailSaid, locales/said.ts) in the raise's `say`");
  });
});

/**
 * The lists `text` joins by a separator written in the code (`.join(', ')`, `.join('、')`): each
 * language has its own (`a, b and c`, `a、b和c`), which Intl.ListFormat knows (the back office's
 * listWords, the catalogues' `{{items, list}}`).
 */
export function listsJoinedInCode(text: string): string[] {
  return [...text.matchAll(/\.join\(\s*(['"`])((?:(?!\1).)*)\1\s*\)/g)].filter((m) => /[,;、，；]/.test(m[2] ?? '')).map((m) => m[0]);
}

describe("a list on the service screen and the back office is joined in the reader's language", () => {
  it('finds a separator written in the code, and passes a space, a line or a list format', () => {
    for (const code of ["r.faults.map((f) => faultWords(t, f)).join(', ')", "who.join('、')", 'problems.join("; ")'])
      assert.equal(listsJoinedInCode(code).length, 1, code);
    for (const code of ["cards.join(' ')", "lines.join('\\n')", 'listWords(w.language, r.faults.map((f) => faultWords(t, f)))', "t('x', { causes: [a, b] })"])
      assert.deepEqual(listsJoinedInCode(code), [], code);
  });

  it('holds in backoffice/src and the service screen', () => {
    const files = [...sources('backoffice/src'), ...sources('renderer/src/screens/service')]
      // A CSV file's comma is its format's, not a language's.
      .filter((rel) => rel !== 'backoffice/src/csv.ts');
    assert.ok(files.includes('backoffice/src/floor.ts'), 'the scan reaches the floor');
    const found = files.flatMap((rel) => listsJoinedInCode(readFileSync(path.join(root, rel), 'utf8')).map((join) => `${rel}: ${join}`));
    assert.deepEqual(found, [], "join a list in the reader's language (listWords, or a catalogue's {{items, list}})");
  });
});
