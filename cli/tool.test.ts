import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { defineCommand, helpText, options } from './command.js';
import { runTool, UsageError } from './tool.js';

const command = defineCommand({
  name: 'tool',
  summary: 'Does a thing.',
  usage: 'Usage: tool --n N',
  options: { n: { type: 'string', value: 'N', help: 'how many', default: '3' }, set: { type: 'string', multiple: true, value: 'K=V', help: 'one more' } },
});

describe('cli tool wrapper', () => {
  it('prints the help on stdout and exits 0 for --help, without running the rest of the body', async () => {
    const log = mock.method(console, 'log', () => undefined);
    let ranOn = false;
    try {
      const code = await runTool('t', () => {
        options(command, ['--help']);
        ranOn = true;
        return 5;
      });
      assert.equal(code, 0);
      assert.equal(ranOn, false);
      assert.deepEqual(
        log.mock.calls.map((c) => c.arguments[0]),
        [helpText(command)],
      );
    } finally {
      log.mock.restore();
    }
  });

  it('prints each option with its value, repetition and default, from the definition the parser uses', () => {
    const help = helpText(command);
    assert.match(help, /^Usage: tool --n N\n\nDoes a thing\.\n\nOptions:\n/);
    assert.match(help, /^ {2}--n N +how many \(default: 3\)$/m);
    assert.match(help, /^ {2}--set K=V … +one more$/m);
    assert.match(help, /^ {2}-h, --help +this help$/m);
    assert.deepEqual({ ...options(command, ['--set', 'a=1', '--set', 'b=2']) }, { n: '3', set: ['a=1', 'b=2'] });
  });

  it('refuses an unknown option naming it and the command, with the usage and exit code 2', async () => {
    const err = mock.method(console, 'error', () => undefined);
    try {
      assert.equal(await runTool('t', () => (options(command, ['--bogus']), 0)), 2);
      assert.match(String(err.mock.calls[0]?.arguments[0]), /^tool: .*--bogus[\s\S]*Usage: tool/);
    } finally {
      err.mock.restore();
    }
  });

  it('reports any other failure as "<name>: reason" with exit code 1', async () => {
    const err = mock.method(console, 'error', () => undefined);
    try {
      assert.equal(
        await runTool('ledger', () => {
          throw new Error('disk gone');
        }),
        1,
      );
      assert.equal(err.mock.calls[0]?.arguments[0], 'ledger: disk gone');
      assert.ok(new UsageError('x') instanceof Error);
    } finally {
      err.mock.restore();
    }
  });
});
