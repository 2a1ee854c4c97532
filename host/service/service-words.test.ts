import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogues, wordAt } from '../../locales/index.js';
import { TILT_KINDS, tiltSpec } from '../tilts/tilt-kinds.js';

describe('service mode words every fault', () => {
  it('says for every kind of fault how it clears, and words each severity and clearance, in every language', () => {
    for (const lang of ['zh-Hant', 'pt', 'en'] as const) {
      const c = catalogues[lang];
      for (const kind of TILT_KINDS) {
        assert.ok(wordAt(c, `service.tiltHow.${kind}`), `${lang}: how ${kind} clears`);
        assert.ok(wordAt(c, `service.severity.${tiltSpec(kind).severity}`), `${lang}: ${tiltSpec(kind).severity}`);
        assert.ok(wordAt(c, `tiltClears.${tiltSpec(kind).clears}`), `${lang}: ${tiltSpec(kind).clears}`);
      }
    }
  });
});
