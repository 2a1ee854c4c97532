// Test-only: just enough of a document for the page's builder (dom.ts `h`) under node, to count
// what a page function builds. Elements keep their tag, attributes and children; nothing is drawn.
export class StubElement {
  readonly children: unknown[] = [];
  readonly attributes = new Map<string, string>();
  constructor(readonly tag: string) {}
  setAttribute(k: string, v: string): void {
    this.attributes.set(k, v);
  }
  readonly dataset: Record<string, string> = {};
  textContent: string | null = null;
  addEventListener(): void {}
  append(...nodes: unknown[]): void {
    for (const n of nodes) this.children.push(n);
  }
  replaceChildren(...nodes: unknown[]): void {
    this.children.splice(0, this.children.length, ...nodes);
  }
  insertBefore(node: unknown, before: unknown): void {
    const at = this.children.indexOf(before);
    this.children.splice(at < 0 ? this.children.length : at, 0, node);
  }
}

/** Installs the stub as `document` unless a real one is there. */
export function useStubDocument(): void {
  (globalThis as { document?: unknown }).document ??= { createElement: (tag: string) => new StubElement(tag) };
}

/** How many elements of `tag` are in `el`, itself included. */
export function countTag(el: unknown, tag: string): number {
  return el instanceof StubElement ? (el.tag === tag ? 1 : 0) + el.children.reduce<number>((n, c) => n + countTag(c, tag), 0) : 0;
}

/** The text of `el`: its strings, in order. */
export function textOf(el: unknown): string {
  if (typeof el === 'string') return el;
  return el instanceof StubElement ? el.children.map(textOf).join('') : '';
}
