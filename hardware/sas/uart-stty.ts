// The termios settings of a SAS line on a real UART (`uart:PATH`, docs/sas.md "Framing"), set and
// read back with coreutils' `stty -F PATH`: Node has no termios binding and the `serialport`
// package sets only none/even/odd parity with IGNPAR (which throws every wake-up byte away).
// termios belongs to the terminal, not to a descriptor, so stty's own open of the device sets the
// port we hold open; the `serialport` package's lock is an advisory flock, which stty's open does
// not contend for. Not `stty < fd` on our own descriptor: stty clears O_NONBLOCK on its standard
// input, a flag the dup shares with ours, and the package's reads then block in the thread pool,
// keeping the port (and its lock) alive after its close (seen here, tests/sas/uart.e2e.test.ts).
//
// The ninth bit is stick parity (glibc manual "Control Modes", CMSPAR; "Input Modes", PARMRK):
// space parity (PARENB CMSPAR, no PARODD) makes a received byte whose ninth bit is 1 a parity
// error, which PARMRK marks as FF 00 b; a data FF comes as FF FF; INPCK checks parity, neither
// IGNPAR (it would drop the marked bytes) nor ISTRIP (it would cut the eighth bit).
import { execFile } from 'node:child_process';

/**
 * What `stty` is given, in order: SAS's 19,200 baud 8 data bits 1 stop bit; space parity with
 * parity errors marked; breaks ignored (a break reads as FF 00 00 under PARMRK, the very bytes of
 * a wake-up 00, the global broadcast address: our choice, docs/sas.md); raw otherwise.
 */
export const SAS_UART_STTY: readonly string[] = [
  '19200',
  'cs8',
  '-cstopb',
  'cread',
  'clocal',
  '-crtscts',
  'parenb',
  'cmspar',
  '-parodd',
  'inpck',
  'parmrk',
  '-ignpar',
  '-istrip',
  'ignbrk',
  '-brkint',
  '-inlcr',
  '-igncr',
  '-icrnl',
  '-ixon',
  '-ixoff',
  '-ixany',
  '-opost',
  '-isig',
  '-icanon',
  '-iexten',
  '-echo',
  '-echonl',
  'min',
  '1',
  'time',
  '0',
];

/** Why a UART could not be made a SAS line: the technician's fault names it (docs/sas.md). */
export type SasUartFault = 'open' | 'not-a-tty' | 'refused' | 'no-stty' | 'stty-failed' | 'timeout' | 'lost';

export class SasUartError extends Error {
  constructor(
    readonly fault: SasUartFault,
    readonly device: string,
    detail: string,
  ) {
    super(`uart:${device}: ${detail}`);
    this.name = 'SasUartError';
  }
}

/** What `stty` printed and how it ended. */
interface SttyRun {
  code: number;
  stdout: string;
  stderr: string;
}

const STTY_MS = 5_000;

/** Runs `stty -F device ARGS`; rejects only when it could not run or hung. */
export function runStty(device: string, args: readonly string[]): Promise<SttyRun> {
  return new Promise((resolve, reject) => {
    execFile('stty', ['-F', device, ...args], { timeout: STTY_MS, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      if (error === null) return resolve({ code: 0, stdout, stderr });
      if (typeof error.code === 'string')
        return reject(new SasUartError('no-stty', device, `stty could not run (${error.message}): coreutils' stty is needed for a uart: link`));
      if (error.killed) return reject(new SasUartError('timeout', device, `stty ${args.join(' ')} did not finish in ${STTY_MS} ms`));
      resolve({ code: typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

/** The settings of `SAS_UART_STTY` that `stty -a`'s report does not show (empty: all taken). */
export function missingSettings(report: string): string[] {
  const tokens = new Set(report.split(/[\s;]+/));
  const missing: string[] = [];
  if (!/\bspeed 19200 baud\b/.test(report)) missing.push('19200');
  for (const s of SAS_UART_STTY) if (/^-?[a-z][a-z0-9]*$/.test(s) && s !== 'min' && s !== 'time' && !tokens.has(s)) missing.push(s);
  return missing;
}

const firstLine = (s: string): string => s.trim().split('\n')[0]?.slice(0, 200) ?? '';

/**
 * Sets the SAS line on the open descriptor and reads it back. A driver that keeps some setting
 * from us (a pseudo-terminal clears PARENB; a USB-serial adapter may not implement CMSPAR) is
 * `refused`, naming what it did not take; a descriptor that is no terminal is `not-a-tty`.
 */
export async function configureSasUart(device: string): Promise<void> {
  const set = await runStty(device, SAS_UART_STTY);
  if (set.code !== 0 && /inappropriate ioctl|not a tty/i.test(set.stderr))
    throw new SasUartError('not-a-tty', device, `not a terminal (${firstLine(set.stderr)})`);
  if (set.code !== 0 && /no such file|permission denied|no such device/i.test(set.stderr))
    throw new SasUartError('open', device, `stty: ${firstLine(set.stderr)}`);
  const read = await runStty(device, ['-a']);
  if (read.code !== 0) throw new SasUartError('stty-failed', device, `stty -a: ${firstLine(read.stderr) || `exit ${read.code}`}`);
  const missing = missingSettings(read.stdout);
  if (missing.length > 0)
    throw new SasUartError(
      'refused',
      device,
      `the device did not take ${missing.join(' ')}: it cannot carry the SAS wake-up bit by parity (stty: ${firstLine(set.stderr) || 'no error'})`,
    );
  // GNU stty compares the whole termios it asked for with what it got: every SAS setting read back is what counts.
  if (set.code !== 0 && !/unable to perform all requested operations/.test(set.stderr))
    throw new SasUartError('stty-failed', device, `stty: ${firstLine(set.stderr) || `exit ${set.code}`}`);
}

/** Stick parity on an open SAS line: mark (the ninth bit sent as 1) or space (0, the line's setting). */
export async function setStickParity(device: string, mark: boolean): Promise<void> {
  const run = await runStty(device, [mark ? 'parodd' : '-parodd']);
  if (run.code !== 0) throw new SasUartError('refused', device, `stty ${mark ? 'parodd' : '-parodd'}: ${firstLine(run.stderr) || `exit ${run.code}`}`);
}
