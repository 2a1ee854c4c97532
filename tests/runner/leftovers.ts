/**
 * The processes a test file's process started and left running when it exits (Linux `/proc`).
 * The runner's preload (`report-drain.ts`, docs/toolchain.md) stops them: a child still holding
 * the file's stdout keeps Node's runner waiting for that pipe to close even after
 * `--test-force-exit` ended the file, and one that does not hold it runs on as an orphan that
 * loads whatever runs next.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly command: string;
}

/** Every process `/proc` shows (none where there is no `/proc`). */
export function processTable(): ProcessEntry[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const table: ProcessEntry[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z') continue; // Ended, not yet reaped by its parent.
      // A process on its way out has given back its memory, and its command line with it: named
      // by its kernel name and state instead (seen in CI as lines naming a pid and nothing else).
      const command =
        readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim() ||
        `[${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}] state ${state}`;
      table.push({ pid: Number(name), ppid: Number(ppid), command });
    } catch {
      // It ended while we read.
    }
  }
  return table;
}

/** The processes below `root`, children before their own children. */
export function descendants(table: readonly ProcessEntry[], root: number): ProcessEntry[] {
  const found: ProcessEntry[] = [];
  const parents = [root];
  for (let i = 0; i < parents.length; i++) {
    for (const entry of table) {
      if (entry.ppid !== parents[i] || entry.pid === root) continue;
      found.push(entry);
      parents.push(entry.pid);
    }
  }
  return found;
}

/**
 * esbuild's service, which tsx starts in every process it loads TypeScript in: not a test's. One on
 * its way out (it ends when the file's process does) has no command line left and shows as
 * `[esbuild] state R`: CI's log of 29 November named 54 of them, none a test's.
 */
export function isTooling(command: string): boolean {
  return /esbuild\S* --service=/.test(command) || /^\[esbuild\] state /.test(command);
}

/**
 * SIGKILLs every process below this one and returns one line for each a test left (tsx's esbuild
 * service is stopped too, it ends with us anyway, but not named).
 */
export function stopLeftovers(table: readonly ProcessEntry[] = processTable(), root = process.pid): string[] {
  const lines: string[] = [];
  for (const entry of descendants(table, root)) {
    try {
      process.kill(entry.pid, 'SIGKILL');
    } catch {
      continue; // Already gone.
    }
    if (!isTooling(entry.command)) lines.push(`left running, stopped: pid ${entry.pid} ${entry.command.slice(0, 200)}`);
  }
  return lines;
}
