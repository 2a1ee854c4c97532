import type { Application } from 'pixi.js';
import { pixiMade, type PixiMade } from './pixi-made.js';

/**
 * What pixi holds on the GPU for this page (issue 52 item 2: the long-run bench samples it every 250
 * rounds, and item 3 counts the texture memory beside the heap). pixi keeps no public tally, so the
 * renderer's own registries are read: the texture sources uploaded (GlTextureSystem's managed
 * textures), the render targets made for textures drawn into (the render-target system's surface map,
 * the canvas's own left out), the Graphics contexts made into GPU data, the geometries and buffers.
 * Read-only, walked when asked (no per-frame work); a field pixi renames reads as zero, which the
 * bench shows as a figure that never moves.
 */
export interface PixiCounts {
  /** Texture sources with GPU storage. */
  textures: number;
  /** Of those, textures drawn into (render textures: baked faces, the felt, cached layers). */
  renderTextures: number;
  /** Bytes of GPU texture storage: width × height × 4 per source, a third more with mipmaps. */
  textureBytes: number;
  graphicsContexts: number;
  geometries: number;
  buffers: number;
  /** The pixi objects made since the page started, by kind (alive or not): the bench's objects made a round. */
  made: PixiMade;
}

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null;

/**
 * The live values of one of pixi's GC-managed hashes (`{ items: Record<uid, T> }`) on a renderer
 * system. pixi leaves a destroyed resource's key with a null value (the hash is compacted only at
 * 10,000 nulls, its GCSystem), so the nulls are not counted: counted, they made every context ever
 * drawn look held (pixi-counts.test.ts).
 */
function managed(system: unknown, field: string): object[] {
  if (!isObject(system)) return [];
  const hash: unknown = Reflect.get(system, field);
  if (!isObject(hash)) return [];
  const items: unknown = Reflect.get(hash, 'items');
  return isObject(items) ? Object.values(items).filter(isObject) : [];
}

const numberOf = (o: object, field: string): number => {
  const v: unknown = Reflect.get(o, field);
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
};

/** The bytes one texture source takes on the GPU (RGBA8; compressed formats are not used here). */
function sourceBytes(source: object): number {
  const base = numberOf(source, 'pixelWidth') * numberOf(source, 'pixelHeight') * 4;
  const mipmapped = Reflect.get(source, 'autoGenerateMipmaps') === true || numberOf(source, 'mipLevelCount') > 1;
  return mipmapped ? Math.round((base * 4) / 3) : base;
}

export function pixiCounts(app: Application): PixiCounts {
  const r: unknown = app.renderer;
  const system = (name: string): unknown => (isObject(r) ? Reflect.get(r, name) : undefined);
  const sources = managed(system('texture'), '_managedTextures');
  const renderTarget = system('renderTarget');
  const targets: unknown = isObject(renderTarget) ? Reflect.get(renderTarget, '_renderSurfaceToRenderTargetHash') : undefined;
  // The map's keys are what is drawn into: the canvas, and the texture sources of render textures.
  const renderTextures = targets instanceof Map ? [...targets.keys()].filter((k) => isObject(k) && 'pixelWidth' in k).length : 0;
  return {
    textures: sources.length,
    renderTextures,
    textureBytes: sources.reduce((sum, s) => sum + sourceBytes(s), 0),
    graphicsContexts: managed(system('graphicsContext'), '_managedContexts').length,
    geometries: managed(system('geometry'), '_managedGeometries').length,
    buffers: managed(system('buffer'), '_managedBuffers').length,
    made: pixiMade(),
  };
}
