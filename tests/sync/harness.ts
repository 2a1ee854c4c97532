import { spawn, type ChildProcess } from 'node:child_process';

export interface ChildRun {
  child: ChildProcess;
  committed: number[];
  lines: string[];
  ready: Promise<void>;
  exited: Promise<number | null>;
  waitFor(line: string, timeoutMs: number): Promise<void>;
}

export function runChild(script: string, args: string[]): ChildRun {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const committed: number[] = [];
  const lines: string[] = [];
  const waiters: { line: string; resolve: () => void }[] = [];
  let buf = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout?.on('data', (d: Buffer) => {
    buf += d.toString();
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      lines.push(line);
      if (line.startsWith('C ')) committed.push(Number(line.slice(2)));
      for (const w of waiters.filter((x) => x.line === line)) w.resolve();
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = (line: string, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      if (lines.includes(line)) return resolve();
      const t = setTimeout(() => reject(new Error(`child did not print ${line} within ${timeoutMs} ms; stderr: ${err.slice(-2000)}`)), timeoutMs);
      waiters.push({ line, resolve: () => (clearTimeout(t), resolve()) });
      void exited.then(() => setTimeout(() => reject(new Error(`child exited before ${line}; stderr: ${err.slice(-2000)}`)), 50));
    });
  return { child, committed, lines, ready: waitFor('READY', 20_000), exited, waitFor };
}
