// A Node process's memory and descriptors as the long-run bench samples them (issue 52 item 2): its
// JS heap after full GCs through its inspector (collected and read in one task of the process:
// `HEAP_AFTER_GC`), its resident set and open descriptors from /proc (Linux).
import { readdirSync, readFileSync } from 'node:fs';

/** The inspector's WebSocket URL from a process started with `--inspect=127.0.0.1:0`, read off its stderr. */
export function inspectorUrl(stderr: string): string | null {
  return /Debugger listening on (ws:\/\/\S+)/.exec(stderr)?.[1] ?? null;
}

/**
 * Run in the process (CDP `Runtime.evaluate`): V8's own GC as `HeapProfiler.collectGarbage` runs it
 * (`gc()`'s `last-resort` flavour: full GCs until nothing more is freed, memory handed back), twice and
 * then until the heap in use stops falling (by under 16 KiB; four at most), and V8's `used_heap_size`
 * then, all in one task. Until 28 November the bench sent `HeapProfiler.collectGarbage` twice and
 * then `Runtime.getHeapUsage`, three round trips while the host went on playing: three such readings
 * in a row of the host differed by up to 0.8 MB (65.74 / 65.82 / 66.53 MB) where GCs in one task read
 * 65.82 four times, and that noise put the host's growth interval past its 0.5 MB budget (issue 52;
 * docs/benchmarks.md). (`gc()`'s plain full GC, ten in a row, left the host's resident set 100 MB
 * higher than the inspector's: 266 against 161 MB after 90 s; this flavour, 154 MB.)
 * The GC function is V8's own (`--expose-gc`, turned on for the call that makes it and off again), in
 * a context of its own made at the first reading and kept under a symbol of the process's global (a
 * context made and dropped at each reading was still held at times by the next, 0.16-0.24 MB): the
 * process is started with no flag, and what the reading keeps is the same from the first sample on.
 */
export const HEAP_AFTER_GC = `(() => {
  const v8 = process.getBuiltinModule('v8');
  const key = Symbol.for('bench/node-probe gc');
  let gc = globalThis[key];
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = globalThis[key] = process.getBuiltinModule('vm').runInNewContext('gc');
    v8.setFlagsFromString('--no-expose-gc');
  }
  let used = Infinity;
  for (let i = 0; i < 4; i++) {
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    const now = v8.getHeapStatistics().used_heap_size;
    const settled = i >= 1 && used - now < 16384;
    used = now;
    if (settled) break;
  }
  return used;
})()`;

/**
 * Run in the process (CDP `Runtime.evaluate`) right after `HEAP_AFTER_GC`: each of V8's heap spaces'
 * bytes in use (`v8.getHeapSpaceStatistics()`) and V8's code statistics (`v8.getHeapCodeStatistics()`:
 * machine code with its metadata, bytecode with its metadata), as JSON. V8's code lives in
 * `code_space` (machine code) and `trusted_space` (code headers, bytecode, deoptimization data) and
 * their large-object spaces: the heap less these is the program's objects.
 */
export const HEAP_SPACES = `(() => {
  const v8 = process.getBuiltinModule('v8');
  const spaces = {};
  for (const s of v8.getHeapSpaceStatistics()) spaces[s.space_name] = s.space_used_size;
  return JSON.stringify({ spaces, code: v8.getHeapCodeStatistics() });
})()`;

/** A heap's spaces in use and V8's code statistics, bytes (`HEAP_SPACES`). */
export interface HeapSpaces {
  spaces: Record<string, number>;
  code: { code_and_metadata_size: number; bytecode_and_metadata_size: number; external_script_source_size: number };
}

/** The spaces that hold V8's code rather than the program's objects (Node 24's V8). */
export const CODE_SPACES = ['code_space', 'code_large_object_space', 'trusted_space', 'trusted_large_object_space'];

/** A CDP session over the inspector's WebSocket (Node's own WebSocket client). */
export class InspectorSession {
  private next = 1;
  /** Whether `HEAP_AFTER_GC` has made its GC function in the process. */
  private gcMade = false;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (ev) => {
      const msg: unknown = JSON.parse(String(ev.data));
      if (typeof msg !== 'object' || msg === null || !('id' in msg) || typeof msg.id !== 'number') return;
      const w = this.waiting.get(msg.id);
      if (!w) return;
      this.waiting.delete(msg.id);
      if ('error' in msg) w.reject(new Error(JSON.stringify(msg.error)));
      else w.resolve('result' in msg ? msg.result : undefined);
    });
  }

  static open(url: string): Promise<InspectorSession> {
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.addEventListener('open', () => resolve(new InspectorSession(socket)));
      socket.addEventListener('error', () => reject(new Error(`the inspector at ${url} did not answer`)));
    });
  }

  send(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /**
   * The heap in use after full GCs, bytes: `HEAP_AFTER_GC` read again, in a task of its own each time,
   * until a reading is no more than 64 KiB under the one before (four at most), and the least of
   * them. Within one task the GCs settle, but what Node frees only in the callbacks V8 runs after a
   * GC (a native object's finalizer, a statement's, a buffer's) is let go by the next reading's: the
   * host read three times in a row gave 53.69 / 53.32 / 53.32 MB. The first reading of a process
   * also makes the GC function's context, 0.8 MB over the next ones (what making it left in that task):
   * it is taken and dropped.
   */
  async heapAfterGc(): Promise<number> {
    const read = async (): Promise<number> => {
      const r = await this.send('Runtime.evaluate', { expression: HEAP_AFTER_GC, returnByValue: true });
      const value: unknown = typeof r === 'object' && r !== null && 'result' in r ? r.result : null;
      const used: unknown = typeof value === 'object' && value !== null && 'value' in value ? value.value : NaN;
      return typeof used === 'number' ? used : NaN;
    };
    if (!this.gcMade) await read();
    this.gcMade = true;
    let least = await read();
    for (let i = 1; i < 4; i++) {
      const now = await read();
      const fell = least - now >= 64 * 1024;
      least = Math.min(least, now);
      if (!fell) break;
    }
    return least;
  }

  /** `HEAP_SPACES` read in the process (in a task of its own: call it right after `heapAfterGc`). */
  async heapSpaces(): Promise<HeapSpaces> {
    const r = await this.send('Runtime.evaluate', { expression: HEAP_SPACES, returnByValue: true });
    const value: unknown = typeof r === 'object' && r !== null && 'result' in r ? r.result : null;
    const json: unknown = typeof value === 'object' && value !== null && 'value' in value ? value.value : '';
    return JSON.parse(String(json)) as HeapSpaces;
  }

  close(): void {
    this.socket.close();
  }
}

/** Resident set size of process `pid`, bytes (VmRSS). */
export function rssOf(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb === undefined ? NaN : Number(kb) * 1024;
}

/** Descriptors process `pid` holds open. */
export function fdsOf(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}
