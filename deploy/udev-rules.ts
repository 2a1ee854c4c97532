// A udev rules parser strict enough to catch what `udevadm verify` (systemd 254+; Debian 12 has
// 252) would: keys it does not know, a match written as an assignment and the reverse, a value not
// quoted, pairs not separated by a comma. Rules files are lines of `KEY[{attr}] OP "value"` pairs.

const MATCH_KEYS = new Set([
  'ACTION',
  'DEVPATH',
  'KERNEL',
  'KERNELS',
  'NAME',
  'SYMLINK',
  'SUBSYSTEM',
  'SUBSYSTEMS',
  'DRIVER',
  'DRIVERS',
  'ATTR',
  'ATTRS',
  'SYSCTL',
  'ENV',
  'CONST',
  'TAG',
  'TAGS',
  'TEST',
  'PROGRAM',
  'RESULT',
]);
const ASSIGN_KEYS = new Set([
  'NAME',
  'SYMLINK',
  'OWNER',
  'GROUP',
  'MODE',
  'SECLABEL',
  'ATTR',
  'SYSCTL',
  'ENV',
  'TAG',
  'RUN',
  'LABEL',
  'GOTO',
  'IMPORT',
  'OPTIONS',
]);
const PAIR = /^([A-Z]+)(\{[^}]+\})?(==|!=|\+=|-=|:=|=)"([^"]*)"$/;

export interface UdevRule {
  line: number;
  /** `KEY` or `KEY{attr}` → value, for `==` (`!=` is kept with a leading `!`). */
  match: Record<string, string>;
  assign: Record<string, string>;
}

export function parseUdevRules(text: string): UdevRule[] {
  const rules: UdevRule[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const where = `line ${i + 1}`;
    // Pairs are separated by a comma and optional spaces; a comma inside quotes is part of a value.
    const pairs: string[] = [];
    let cur = '';
    let quoted = false;
    for (const ch of line) {
      if (ch === '"') quoted = !quoted;
      if (ch === ',' && !quoted) {
        pairs.push(cur.trim());
        cur = '';
      } else cur += ch;
    }
    if (quoted) throw new Error(`${where}: unterminated quote`);
    pairs.push(cur.trim());
    const rule: UdevRule = { line: i + 1, match: {}, assign: {} };
    for (const p of pairs) {
      const m = PAIR.exec(p);
      if (!m) throw new Error(`${where}: "${p}" is not KEY OP "value" (pairs not separated by a comma, or a value not quoted)`);
      const [, key = '', attr = '', op = '', value = ''] = m;
      const name = `${key}${attr}`;
      const isMatch = op === '==' || op === '!=';
      if (!MATCH_KEYS.has(key) && !ASSIGN_KEYS.has(key)) throw new Error(`${where}: unknown key ${key}`);
      if (isMatch && !MATCH_KEYS.has(key)) throw new Error(`${where}: ${name} cannot be matched`);
      if (!isMatch && !ASSIGN_KEYS.has(key)) throw new Error(`${where}: match key ${name} with an assignment ${op}`);
      if ((key === 'ATTR' || key === 'ATTRS' || key === 'ENV') && !attr) throw new Error(`${where}: ${key} needs {name}`);
      if (key === 'MODE' && !/^0?[0-7]{3}$/.test(value)) throw new Error(`${where}: MODE "${value}" is not octal`);
      if (isMatch) rule.match[name] = op === '!=' ? `!${value}` : value;
      else rule.assign[name] = value;
    }
    if (Object.keys(rule.match).length === 0) throw new Error(`${where}: a rule without a match applies to every device`);
    rules.push(rule);
  });
  return rules;
}
