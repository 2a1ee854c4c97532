import { Text, type Container } from 'pixi.js';

/**
 * Device pixels per design unit: the layout is 1920×1080 and scaled to the display, so a 4K
 * panel draws every design pixel with four. Texts and the card atlas are rasterised at this
 * resolution (rounded up to a half step), so they stay sharp instead of being stretched.
 */
export function designResolution(rendererResolution: number, stageScale: number): number {
  return Math.min(4, Math.ceil(rendererResolution * stageScale * 2) / 2);
}

/** Sets every text under `root` to `resolution`; only texts that differ are re-rasterised. */
export function sharpenTexts(root: Container, resolution: number): void {
  const visit = (node: Container) => {
    if (node instanceof Text && node.resolution !== resolution) node.resolution = resolution;
    for (const child of node.children) visit(child);
  };
  visit(root);
}
