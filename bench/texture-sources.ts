// BENCH_LONG_TEXTURES=1 (bench/long-run.bench.ts): at every sample, each page's texture sources as the
// `textureSources()` test hook lists them (renderer/src/test-hooks/texture-sources.ts: size, kind and
// what holds each), printed whole at the first sample and as what came and went at each one after,
// so a step in the `pixi()` count is named by the textures that made it (issue 52).
import type { Page } from '@playwright/test';
import { z } from 'zod';
import { bounded } from './page-probe.js';

const Row = z.object({
  uid: z.number(),
  label: z.string(),
  width: z.number(),
  height: z.number(),
  kind: z.string(),
  owner: z.string(),
});
export type TextureRow = z.infer<typeof Row>;
const Rows = z.array(Row);

/** The page's texture sources, or null when it has no hook or does not answer within `ms`. */
export async function readTextureSources(page: Page, ms: number): Promise<TextureRow[] | null> {
  const answer: unknown = await bounded(
    page.evaluate('globalThis.__kiosk?.textureSources?.() ?? null').catch(() => null),
    ms,
    () => null,
  );
  const read = Rows.safeParse(answer);
  return read.success ? read.data : null;
}

const line = (r: TextureRow) => `#${r.uid} ${r.width}×${r.height} ${r.kind}${r.owner ? ` ${r.owner}` : ''}${r.label ? ` [${r.label}]` : ''}`;

/** Every row, sorted by kind and size, one line each. */
export function textureLines(rows: readonly TextureRow[]): string[] {
  return [...rows].sort((a, b) => a.kind.localeCompare(b.kind) || b.width * b.height - a.width * a.height || a.uid - b.uid).map(line);
}

/** How many of each kind: `text 41, pooled 22, …`. */
export function textureKinds(rows: readonly TextureRow[]): string {
  const n = new Map<string, number>();
  for (const r of rows) n.set(r.kind, (n.get(r.kind) ?? 0) + 1);
  return [...n].map(([k, c]) => `${k} ${c}`).join(', ');
}

/**
 * What changed from `before` to `after`, by source: `+` a source that came, `-` one that went, `~` one
 * that stayed but changed size, kind or owner (a text's texture given back to the pool and taken by
 * another text is the same source: `~`).
 */
export function textureChanges(before: readonly TextureRow[], after: readonly TextureRow[]): string[] {
  const was = new Map(before.map((r) => [r.uid, r]));
  const is = new Map(after.map((r) => [r.uid, r]));
  const out: string[] = [];
  for (const r of after) {
    const old = was.get(r.uid);
    if (!old) out.push(`+ ${line(r)}`);
    else if (line(old) !== line(r)) out.push(`~ ${line(old)} → ${r.width}×${r.height} ${r.kind}${r.owner ? ` ${r.owner}` : ''}`);
  }
  for (const r of before) if (!is.has(r.uid)) out.push(`- ${line(r)}`);
  return out;
}

/** Each page's texture sources at every sample, said as they are at the first and as what changed after. */
export class TextureWatch {
  private readonly last = new Map<string, TextureRow[]>();

  constructor(
    private readonly ms: number,
    private readonly say: (line: string) => void,
  ) {}

  async sample(view: string, page: Page, rounds: number): Promise<void> {
    const rows = await readTextureSources(page, this.ms);
    if (!rows) return this.say(`${view} page: no texture sources read at ${rounds} rounds`);
    const before = this.last.get(view);
    this.last.set(view, rows);
    const head = `${view} page's texture sources at ${rounds} rounds (${rows.length}: ${textureKinds(rows)})`;
    const lines = before ? textureChanges(before, rows) : textureLines(rows);
    if (before && !lines.length) return this.say(`${head}, the same as at the last sample`);
    this.say(`${head}${before ? ', since the last sample' : ''}:\n    ${lines.join('\n    ')}`);
  }
}
