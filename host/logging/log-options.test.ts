import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import pino from 'pino';
import { logFormat, REDACTED, scrubUrlSecrets } from './log-options.js';

function capture(app = 'table-host') {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino(logFormat({ app }), sink), lines };
}

describe('the one log format', () => {
  it('writes the time as an ISO instant in UTC and names the process', () => {
    const { log, lines } = capture('kiosk-main');
    log.info('hello');
    assert.match(String(lines[0]?.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(lines[0]?.app, 'kiosk-main');
  });

  it('redacts tokens, PINs and authorisation headers wherever they sit', () => {
    const { log, lines } = capture();
    log.info(
      { token: 'tok-1', pin: '1234', session: { token: 'tok-2', newPin: '5678' }, req: { headers: { authorization: 'Bearer abc', 'x-sim-token': 'sim' } } },
      'secrets',
    );
    const text = JSON.stringify(lines);
    for (const secret of ['tok-1', 'tok-2', '1234', '5678', 'Bearer abc', '"sim"']) assert.ok(!text.includes(secret), secret);
    assert.equal(lines[0]?.token, REDACTED);
  });

  it('scrubs secret query parameters from any string, message included, and leaves the rest', () => {
    assert.equal(scrubUrlSecrets('/table?token=abc&lang=pt'), `/table?token=${REDACTED}&lang=pt`);
    assert.equal(scrubUrlSecrets('/service/export/meters.csv?lang=en&t=x-y_z'), `/service/export/meters.csv?lang=en&t=${REDACTED}`);
    assert.equal(scrubUrlSecrets('/healthz?x=1'), '/healthz?x=1');
    const { log, lines } = capture();
    log.warn({ where: { url: 'http://127.0.0.1:9/station/1?token=launch-secret' } }, 'opened http://h/table?token=launch-secret2 now');
    const text = JSON.stringify(lines);
    assert.ok(!text.includes('launch-secret'), text);
    assert.match(String(lines[0]?.msg), /token=\[redacted\] now$/);
  });

  it('lets a hook wrap every call after the scrub (sampling repeated lines, issue 20)', () => {
    const seen: unknown[][] = [];
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const log = pino(
      logFormat({
        app: 'x',
        logMethod(args, method) {
          seen.push(args);
          if (String(args.at(-1)).startsWith('drop')) return;
          method.apply(this, args);
        },
      }),
      sink,
    );
    log.info('drop me ?token=s3cret');
    log.info('keep me');
    assert.equal(lines.length, 1);
    assert.ok(!JSON.stringify(seen).includes('s3cret'), 'the hook sees the scrubbed message');
  });
});
