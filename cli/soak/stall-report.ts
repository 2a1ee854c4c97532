// What a stuck host was doing: the soak's stall error names the host's log messages since its
// last closed round, so that a CI log (which keeps no data folder) says why the table stopped.
// The war soak with tickets that stalled on 29 November logged 252 `ticket in: returned`
// (`already-paid`) and nothing else after its last round: that line alone names the livelock.
import { closeSync, openSync, readSync, statSync } from 'node:fs';

/** The log's tail read: a stall's minute of messages, not a week's log. */
const TAIL_BYTES = 512 * 1024;
/** The kinds of message named, most frequent first. */
const KINDS = 6;

/** The last TAIL_BYTES of a file as text; empty when it cannot be read. */
function tail(file: string): string {
  let fd: number | null = null;
  try {
    const size = statSync(file).size;
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    fd = openSync(file, 'r');
    readSync(fd, buffer, 0, length, size - length);
    return buffer.toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function field(entry: Record<string, unknown>, key: string): string | null {
  const v = entry[key];
  return typeof v === 'string' || typeof v === 'number' ? String(v) : null;
}

/**
 * The host's log lines written at or after `since` (ms since the epoch), counted by message and
 * reason or code: `252 × ticket in: returned (already-paid)`. Lines that are not the host's JSON
 * (a cut first line, a crash's stack) are skipped. "nothing logged" when none.
 */
export function logSince(file: string, since: number): string {
  const counts = new Map<string, number>();
  for (const line of tail(file).split('\n')) {
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isRecord(entry)) continue;
    const time = Date.parse(field(entry, 'time') ?? '');
    const msg = field(entry, 'msg');
    if (!msg || !(time >= since)) continue;
    const why = field(entry, 'reason') ?? field(entry, 'code');
    const key = why ? `${msg} (${why})` : msg;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  if (counts.size === 0) return 'nothing logged';
  const kinds = [...counts].sort((a, b) => b[1] - a[1]);
  const named = kinds.slice(0, KINDS).map(([k, n]) => `${n} × ${k}`);
  if (kinds.length > KINDS) named.push(`${kinds.length - KINDS} other kinds`);
  return named.join('; ');
}
