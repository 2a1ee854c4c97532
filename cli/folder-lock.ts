// The command-line tools that write a data folder take its lock (ledger/data-folder-lock.ts), so
// they never write beside a running host; a held lock is the user's to resolve: exit 2, naming it.
import { DataFolderBusy, lockDataFolder, type DataFolderLock } from '../ledger/index.js';
import { UsageError } from './tool.js';

export function lockFolderForTool(dataDir: string, what: string, advice = 'stop the host first'): DataFolderLock {
  try {
    return lockDataFolder(dataDir, what);
  } catch (e) {
    if (e instanceof DataFolderBusy) throw new UsageError(`${e.message}; ${advice}`);
    throw e;
  }
}
