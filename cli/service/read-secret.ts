import readline from 'node:readline';
import { Writable } from 'node:stream';

/**
 * Reads PINs: at a terminal, a prompt with the echo off; from a pipe, one PIN per line (for
 * scripted set-up). Never from an argument, which would land in the shell history and `ps`.
 */
export function secretReader(): { read(prompt: string): Promise<string>; close(): void } {
  const tty = process.stdin.isTTY === true;
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _enc, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = readline.createInterface({ input: process.stdin, output: tty ? output : undefined, terminal: tty });
  const lines: string[] = [];
  const waiting: ((line: string | null) => void)[] = [];
  let ended = false;
  rl.on('line', (line) => {
    const w = waiting.shift();
    if (w) w(line);
    else lines.push(line);
  });
  rl.on('close', () => {
    ended = true;
    for (const w of waiting.splice(0)) w(null);
  });
  return {
    async read(prompt) {
      if (tty) process.stderr.write(prompt);
      muted = true;
      const line = lines.shift() ?? (ended ? null : await new Promise<string | null>((resolve) => waiting.push(resolve)));
      muted = false;
      if (tty) process.stderr.write('\n');
      if (line === null) throw new Error('no PIN on standard input');
      return line.trim();
    },
    close: () => rl.close(),
  };
}
