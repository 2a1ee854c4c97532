// A Node process's memory and descriptors as the long-run bench samples them (issue 52 item 2): its
// JS heap after a full GC through its inspector (the same CDP calls as a page's, so the host's heap
// and the pages' are read alike), its resident set and open descriptors from /proc (Linux).
import { readdirSync, readFileSync } from 'node:fs';

/** The inspector's WebSocket URL from a process started with `--inspect=127.0.0.1:0`, read off its stderr. */
export function inspectorUrl(stderr: string): string | null {
  return /Debugger listening on (ws:\/\/\S+)/.exec(stderr)?.[1] ?? null;
}

/** A CDP session over the inspector's WebSocket (Node's own WebSocket client). */
export class InspectorSession {
  private next = 1;
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

  /** The heap in use after two full GCs, bytes. */
  async heapAfterGc(): Promise<number> {
    await this.send('HeapProfiler.collectGarbage');
    await this.send('HeapProfiler.collectGarbage');
    const r = await this.send('Runtime.getHeapUsage');
    const used = typeof r === 'object' && r !== null && 'usedSize' in r ? r.usedSize : NaN;
    return typeof used === 'number' ? used : NaN;
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
