import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogues } from '../../locales/index.js';
import { TILT_KINDS, tiltSpec } from '../tilts/tilt-kinds.js';

describe('service mode words every fault', () => {
  it('says for every kind of fault how it clears, and words each severity and clearance, in every language', () => {
    for (const lang of ['zh-Hant', 'pt', 'en'] as const) {
      const c = catalogues[lang] as unknown as { service: { tiltHow: Record<string, string>; severity: Record<string, string> }; tiltClears: Record<string, string> };
      for (const kind of TILT_KINDS) {
        assert.ok(c.service.tiltHow[kind], `${lang}: how ${kind} clears`);
        assert.ok(c.service.severity[tiltSpec(kind).severity], `${lang}: ${tiltSpec(kind).severity}`);
        assert.ok(c.tiltClears[tiltSpec(kind).clears], `${lang}: ${tiltSpec(kind).clears}`);
      }
    }
  });
});
