import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PAGE_V8_FLAGS } from '../host/screens/page-v8-flags.js';
import { jsFlagsArgs, pageJsFlags } from './page-flags.js';

describe("a bench's page flags", () => {
  it("are the kiosk's unless asked otherwise", () => {
    assert.equal(pageJsFlags(undefined), PAGE_V8_FLAGS.join(' '));
    assert.deepEqual(jsFlagsArgs(pageJsFlags(undefined)), ['--js-flags=--no-sparkplug --no-maglev']);
  });
  it("are V8's defaults for `none`, and a variable's own otherwise", () => {
    assert.equal(pageJsFlags('none'), '');
    assert.deepEqual(jsFlagsArgs(pageJsFlags(' none ')), []);
    assert.equal(pageJsFlags('--no-sparkplug'), '--no-sparkplug');
  });
});
