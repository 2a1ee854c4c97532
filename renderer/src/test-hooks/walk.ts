import type { Container } from 'pixi.js';

/** Visits every visible node of the stage under `node`, parents before children. */
export function walk(node: Container, visit: (c: Container) => void): void {
  if (!node.visible) return;
  visit(node);
  for (const child of node.children) walk(child, visit);
}

/** The last visible node of the stage (the one drawn on top) that `is` says is the one looked for; null when none is shown. */
export function findLast<T extends Container>(stage: Container, is: (c: Container) => c is T): T | null {
  let found: T | null = null;
  walk(stage, (c) => {
    if (is(c)) found = c;
  });
  return found;
}
