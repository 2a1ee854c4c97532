import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { jsonTextAs } from './json-text.js';

const Shape = z.strictObject({ v: z.literal(1), items: z.array(z.strictObject({ n: z.number() })) });

describe('jsonTextAs', () => {
  it('reads text of the schema, and says why not in words that name the field', () => {
    assert.deepEqual(jsonTextAs('{"v":1,"items":[{"n":2}]}', Shape, 'a list'), { ok: true, data: { v: 1, items: [{ n: 2 }] } });
    const cut = jsonTextAs('{"v":1,"ite', Shape, 'a list');
    assert.equal(cut.ok, false);
    assert.match(!cut.ok ? cut.why : '', /^it is not JSON \(/);
    const wrong = jsonTextAs('{"v":1,"items":[{"n":"two"}],"x":0}', Shape, 'a list');
    assert.match(!wrong.ok ? wrong.why : '', /^it is not a list \(items\.0\.n: .*; the file: .*"x"/);
    assert.match((jsonTextAs('[]', Shape, 'a list') as { why: string }).why, /the file: /);
  });
});
