import fs from 'node:fs';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

/**
 * PGlite's Node file system with the flush it lacks. PGlite 0.5 starts PostgreSQL with `-F` (fsync
 * off), its WebAssembly runtime answers fdatasync (the WAL's default flush) without doing anything,
 * and Emscripten's NODEFS has no fsync: no commit reached the disk before its answer, only the
 * kernel's cache. A power cut lost the last answers (a ticket the floor was told is redeemed), and
 * with fsync off could leave the cluster damaged. Here PostgreSQL's fsync(2) of a file or a folder
 * is Node's on the file's own descriptor.
 */
class FlushedNodeFS extends NodeFS {
  override async init(pg: PGlite, opts: Parameters<NodeFS['init']>[1]): ReturnType<NodeFS['init']> {
    const { emscriptenOpts } = await super.init(pg, opts);
    const flushFiles = (mod: { NODEFS: unknown }) => {
      const ops = streamOpsOf(mod.NODEFS);
      ops.fsync = (stream: unknown) => {
        fs.fsyncSync(descriptorOf(stream));
        return 0;
      };
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), flushFiles] } };
  }
}

/** PostgreSQL's start for a folder: fsync on, and the WAL flushed with fsync(2) (fdatasync does nothing here). */
function flushedStartParams(): string[] {
  return [...PGlite.defaultStartParams.filter((p) => p !== '-F'), '-c', 'fsync=on', '-c', 'wal_sync_method=fsync'];
}

/** PGlite in `dataDir`, every commit on the disk before it answers. */
export function createFlushedPglite(dataDir: string, options: Omit<PGliteOptions, 'dataDir' | 'fs' | 'startParams'> = {}): Promise<PGlite> {
  return PGlite.create({ ...options, fs: new FlushedNodeFS(dataDir), startParams: flushedStartParams() });
}

function streamOpsOf(nodefs: unknown): { fsync?: (stream: unknown) => number } {
  const ops = typeof nodefs === 'object' && nodefs !== null && 'stream_ops' in nodefs ? nodefs.stream_ops : undefined;
  if (typeof ops !== 'object' || ops === null) throw new Error("PGlite's NODEFS has no stream_ops: this PGlite cannot be made to flush its commits");
  return ops;
}

function descriptorOf(stream: unknown): number {
  const fd = typeof stream === 'object' && stream !== null && 'nfd' in stream ? stream.nfd : undefined;
  if (typeof fd !== 'number') throw new Error('a PGlite file to flush has no descriptor');
  return fd;
}
