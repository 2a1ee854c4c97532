import { uid } from 'pixi.js';

/**
 * How many pixi objects this page has made since it started, by kind (issue 52: the long-run bench
 * reads it at every sample, so the objects a round makes and throws away are a number per round).
 * pixi numbers each object it makes from a counter per kind (`uid(name)`: a Container and all its
 * kinds — Sprite, Text, Graphics — are `renderable`); it keeps no other tally. Reading a counter
 * takes one number from it (the next id), so the ids taken by reads are subtracted: what is left is
 * the objects pixi made. Nothing runs per frame: counted only when asked.
 */
const KINDS = {
  containers: 'renderable',
  textures: 'texture',
  textureSources: 'textureSource',
  graphicsContexts: 'graphicsContext',
  graphicsPaths: 'graphicsPath',
  geometries: 'geometry',
  buffers: 'buffer',
  renderTargets: 'renderTarget',
  textStyles: 'textStyle',
  instructionSets: 'instructionSet',
} as const;

export type PixiMade = Record<keyof typeof KINDS, number>;

/** Ids taken by reads, per pixi counter. */
const taken = new Map<string, number>();

export function pixiMade(): PixiMade {
  const made = {} as PixiMade;
  for (const [kind, name] of Object.entries(KINDS) as [keyof typeof KINDS, string][]) {
    const reads = taken.get(name) ?? 0;
    // pixi's counter starts at -1: after n objects and `reads` reads, the next id is n + reads.
    made[kind] = uid(name) - reads;
    taken.set(name, reads + 1);
  }
  return made;
}
