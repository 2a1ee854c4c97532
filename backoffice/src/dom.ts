type Child = Node | string | null | undefined;

/**
 * A small element builder: the page is plain DOM, and text always goes in as text (never as HTML).
 * A list of children goes in as one array, never spread: a spread passes each item as an argument,
 * and a list as long as a table may journal (a round's 150,000 bets) overflowed the stack.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Child | readonly Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children) {
    if (Array.isArray(c)) {
      for (const one of c as readonly Child[]) if (one !== null && one !== undefined) el.append(one);
    } else if (c !== null && c !== undefined) el.append(c as Node | string);
  }
  return el;
}

export function clear(el: Element): void {
  el.replaceChildren();
}
