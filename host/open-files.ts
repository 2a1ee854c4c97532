import { readFileSync } from 'node:fs';

/** This process's soft limit of open files (`ulimit -n`), where the system says (Linux's /proc); null elsewhere. */
export function openFilesLimit(): number | null {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    const n = soft === undefined || soft === 'unlimited' ? NaN : Number(soft);
    return Number.isInteger(n) ? n : null;
  } catch {
    return null;
  }
}

/** Files the host holds besides its sockets: the ledger and its WAL, the logs, the accounts, devices, Node's own. */
export const FILES_BESIDE_SOCKETS = 64;
