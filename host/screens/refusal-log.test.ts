// The screens' refusal log says every refusal it held back when the host stops: before, the last
// second's count of a flood was lost at shutdown (its timer unref()ed, nothing closed it).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { RefusalLog } from './refusal-log.js';

describe('the refused screen messages, logged sampled', () => {
  it('says the count held back on close', () => {
    const lines: { suppressed?: number; code?: string }[] = [];
    const log = pino({ level: 'warn' }, { write: (s: string) => void lines.push(JSON.parse(s) as { suppressed?: number }) });
    let t = 0;
    const refusals = new RefusalLog(log, () => t, 1000);
    for (let i = 0; i < 5; i++) {
      refusals.refused('station', 'rejected', { session: 's1' });
      t += 10;
    }
    assert.equal(lines.length, 1, 'the first at once, the rest held back');
    refusals.close();
    assert.deepEqual(
      lines.map((l) => [l.code, l.suppressed]),
      [
        ['rejected', undefined],
        ['rejected', 3],
      ],
      'the last held back said, with the three before it',
    );
  });
});
