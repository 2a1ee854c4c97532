import { Cache, Sprite, Text, TexturePool, type Application, type Container } from 'pixi.js';

/**
 * One texture source pixi holds on the GPU, and what holds it (issue 52: the long-run bench's table
 * page stepped from 96 to 100 textures between two samples, and a count alone does not say which).
 * `kind`, the first that fits: `text`, a Text's texture in pixi's text system (`owner`: its words);
 * `pooled`, idle in pixi's texture pool (kept for a text or layer of its size); `font`, a page of a
 * bitmap font (`owner`: the font); `layer`, a cached layer's texture (`owner`: the layer's path);
 * `sprite`, a sprite's texture (`owner`: its path); `target`, another texture drawn into; `other`.
 */
export interface TextureSourceRow {
  uid: number;
  label: string;
  /** Device pixels. */
  width: number;
  height: number;
  kind: 'text' | 'pooled' | 'font' | 'layer' | 'sprite' | 'target' | 'other';
  owner: string;
}

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null;
const field = (o: unknown, name: string): unknown => (isObject(o) ? Reflect.get(o, name) : undefined);
const num = (o: unknown, name: string): number => {
  const v = field(o, name);
  return typeof v === 'number' ? v : NaN;
};
/** A texture's source (pixi keeps it in `source`), or the object itself when it is one. */
const sourceOf = (texture: unknown): unknown => field(texture, 'source') ?? field(texture, '_source');

/** A node's place on the stage: its and its parents' labels (or kind), outermost first. */
function pathOf(node: Container): string {
  const parts: string[] = [];
  for (let n: Container | null = node; n; n = n.parent) parts.unshift(n.label || (n instanceof Text ? 'Text' : n instanceof Sprite ? 'Sprite' : 'Container'));
  return parts.slice(1).join('>');
}

/**
 * Every texture source with GPU storage (the sources the `pixi()` count counts), with its size, kind
 * and owner. Read-only, walked when asked: pixi's private registries are read without trusting them
 * (a renamed field leaves its kind `other`).
 */
export function textureSources(app: Application): TextureSourceRow[] {
  const r: unknown = app.renderer;
  const items = field(field(field(r, 'texture'), '_managedTextures'), 'items');
  const sources = isObject(items) ? Object.values(items).filter(isObject) : [];
  const owners = new Map<unknown, { kind: TextureSourceRow['kind']; owner: string }>();
  const claim = (source: unknown, kind: TextureSourceRow['kind'], owner: string) => {
    if (source !== undefined && !owners.has(source)) owners.set(source, { kind, owner });
  };

  // Texts: the text system's live entries, named by their words and, where a Text on the stage shows them, its place.
  const textPaths = new Map<string, string>();
  const visit = (node: Container) => {
    if (node instanceof Text) textPaths.set(node.styleKey, pathOf(node));
    for (const child of node.children) visit(child);
  };
  visit(app.stage);
  const active = field(field(r, 'canvasText'), '_activeTextures');
  if (isObject(active))
    for (const [key, entry] of Object.entries(active)) {
      if (!isObject(entry)) continue;
      const words = key.split(':')[0]!.replaceAll('\n', '⏎').slice(0, 48);
      claim(sourceOf(field(entry, 'texture')), 'text', `${words} @ ${textPaths.get(key) ?? 'not on the stage'}`);
    }

  // Idle in the pool.
  const buckets = field(TexturePool, '_buckets');
  if (buckets instanceof Map)
    for (const textures of buckets.values() as Iterable<unknown>) if (Array.isArray(textures)) for (const t of textures) claim(sourceOf(t), 'pooled', '');

  // Bitmap fonts' pages (pixi's asset cache keeps each installed font as `<name>-bitmap`).
  const cache = field(Cache, '_cache');
  if (cache instanceof Map)
    for (const [key, font] of cache as Map<unknown, unknown>) {
      if (typeof key !== 'string' || !key.endsWith('-bitmap')) continue;
      const pages = field(font, 'pages');
      if (Array.isArray(pages)) pages.forEach((p, i) => claim(sourceOf(field(p, 'texture')), 'font', `${key.slice(0, -'-bitmap'.length)} page ${i}`));
    }

  // Cached layers and sprites, visible or not.
  const walkAll = (node: Container) => {
    const group = node.renderGroup;
    if (group?.isCachedAsTexture && group.texture) claim(sourceOf(group.texture), 'layer', pathOf(node) || node.label);
    if (node instanceof Sprite) claim(sourceOf(node.texture), 'sprite', pathOf(node));
    for (const child of node.children) walkAll(child);
  };
  walkAll(app.stage);

  const targets = field(field(r, 'renderTarget'), '_renderSurfaceToRenderTargetHash');
  return sources.map((s) => {
    const known = owners.get(s) ?? (targets instanceof Map && targets.has(s) ? { kind: 'target' as const, owner: '' } : { kind: 'other' as const, owner: '' });
    const label = field(s, 'label');
    return { uid: num(s, 'uid'), label: typeof label === 'string' ? label : '', width: num(s, 'pixelWidth'), height: num(s, 'pixelHeight'), ...known };
  });
}
