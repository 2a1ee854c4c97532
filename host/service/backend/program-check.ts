import { manifestDiff, programManifest } from '../program-hash.js';
import type { StatusPart } from '../service-backend.js';
import type { Changes } from './changes.js';
import type { LiveBackendDeps } from './deps.js';
import { actDetailSaid, recordedFirst, type ServiceJournal } from './service-journal.js';

/** The program's hash at start and on demand, a different one traced to its files. */
export function programCheck(
  d: Pick<LiveBackendDeps, 'program' | 'log'>,
  now: () => number,
  journal: ServiceJournal,
  changes: Changes,
): Pick<StatusPart, 'programHashAtStart' | 'programHashLatest' | 'computeProgramHash'> {
  let latestHash: { hash: string; at: string; changed: string[] } | null = null;
  return {
    programHashAtStart: () => d.program.atStart.hash,
    programHashLatest: () => latestHash,

    async computeProgramHash(who) {
      const current = await programManifest(d.program.layout);
      const start = d.program.atStart;
      // A different hash is traced to its files: changed, added or removed since the start.
      const diff = manifestDiff(start, current);
      const changed = [...diff.changed, ...diff.added.map((p) => `+${p}`), ...diff.removed.map((p) => `-${p}`)];
      const files = { hash: current.hash, files: current.files.length, mode: current.mode };
      const detail = changed.length
        ? actDetailSaid('actProgramHashDiffers', { ...files, differing: changed.length, changed: namesWithin(changed, 380) })
        : actDetailSaid('actProgramHash', files);
      // Journalled first: a hash the journal has no record of is never shown.
      const refused = recordedFirst(journal, d.log, [who], 'program-hash', detail);
      if (refused) return refused;
      latestHash = { hash: current.hash, at: new Date(now()).toISOString(), changed: changed.slice(0, 16) };
      changes.changed();
      return {
        ok: true,
        key: current.hash === start.hash ? 'service.done.hashSame' : 'service.done.hashDiffers',
        values: { hash: current.hash.slice(0, 16), count: changed.length },
      };
    },
  };
}

/** The names joined by commas, as many whole ones as fit in `max` characters, then an ellipsis (their count is said beside them). */
export function namesWithin(names: readonly string[], max: number): string {
  let out = '';
  for (const [i, name] of names.entries()) {
    const next = i === 0 ? name : `${out}, ${name}`;
    if (next.length > max) return i === 0 ? `${name.slice(0, max)}…` : `${out}, …`;
    out = next;
  }
  return out;
}
