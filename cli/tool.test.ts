import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { options, runTool, UsageError } from './tool.js';

const USAGE = 'Usage: tool --n N';
const spec = { n: { type: 'string' } } as const;

describe('cli tool wrapper', () => {
  it('prints the usage on stdout and exits 0 for --help, without running the rest of the body', async () => {
    const log = mock.method(console, 'log', () => undefined);
    let ranOn = false;
    try {
      const code = await runTool('t', () => {
        options(['--help'], spec, USAGE);
        ranOn = true;
        return 5;
      });
      assert.equal(code, 0);
      assert.equal(ranOn, false);
      assert.deepEqual(
        log.mock.calls.map((c) => c.arguments[0]),
        [USAGE],
      );
    } finally {
      log.mock.restore();
    }
  });

  it('refuses an unknown option with the usage and exit code 2', async () => {
    const err = mock.method(console, 'error', () => undefined);
    try {
      assert.equal(await runTool('t', () => (options(['--bogus'], spec, USAGE), 0)), 2);
      assert.match(String(err.mock.calls[0]?.arguments[0]), /--bogus[\s\S]*Usage: tool/);
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
