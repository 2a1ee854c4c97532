import type { Page } from '@playwright/test';
import type { Box } from './layout-check.js';

// The layout check of the back office (a DOM page, not the kiosk's canvas): the same boxes the
// kiosk's test hook gives (tests/browser/layout-check.ts compares them), read from the page. A text
// is each line box of each visible text node (a Range's client rects: the glyphs' extent, not the
// block's), with the button, select or input it sits in as its `owner`; a control is a `button`.
// Beside overlaps: texts cut by their box (an element that clips and whose content is wider or
// taller than it), and a page wider than the window (a column a reader would scroll sideways to).

/** Every visible text line and control on the page, in CSS pixels. */
export function domBoxes(page: Page): Promise<Box[]> {
  return page.evaluate(() => {
    const out: Box[] = [];
    const controls = 'button, select, input, textarea';
    const visible = (el: Element) => {
      const s = getComputedStyle(el);
      return s.visibility !== 'hidden' && s.display !== 'none' && el.getClientRects().length > 0;
    };
    const labelOf = (el: Element) =>
      (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? `${el.name}` : (el.textContent ?? '')).trim().slice(0, 40) || el.tagName;
    for (const el of Array.from(document.querySelectorAll(controls))) {
      if (!visible(el)) continue;
      const r = el.getBoundingClientRect();
      out.push({ kind: 'button', label: labelOf(el), x: r.x, y: r.y, width: r.width, height: r.height });
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let n = 0;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? '').trim();
      const parent = node.parentElement;
      // A select's options are drawn by the select (its box above), not where their nodes are.
      if (!text || !parent || parent.closest('option, script, style') || !visible(parent)) continue;
      const owner = parent.closest(controls);
      const range = document.createRange();
      range.selectNodeContents(node);
      n++;
      for (const r of Array.from(range.getClientRects())) {
        if (r.width < 1 || r.height < 1) continue;
        out.push({
          kind: 'text',
          label: `${text.slice(0, 40)} #${n}`,
          ...(owner ? { owner: labelOf(owner) } : {}),
          x: r.x,
          y: r.y,
          width: r.width,
          height: r.height,
        });
      }
    }
    return out;
  });
}

/** Texts cut by a box that clips them, and a page wider than its window. */
export function cutOrWide(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth > window.innerWidth + 1) out.push(`the page is ${root.scrollWidth} px wide in a window of ${window.innerWidth}`);
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const s = getComputedStyle(el);
      const clips = s.overflowX !== 'visible' || s.overflowY !== 'visible' || s.textOverflow === 'ellipsis';
      if (!clips || el instanceof HTMLSelectElement || el instanceof HTMLInputElement || el.getClientRects().length === 0) continue;
      // An element meant to scroll (auto/scroll) is read by scrolling it; one that hides is cut.
      const hidesX = s.overflowX === 'hidden' || s.overflowX === 'clip';
      const hidesY = s.overflowY === 'hidden' || s.overflowY === 'clip';
      if ((hidesX && el.scrollWidth > el.clientWidth + 1) || (hidesY && el.scrollHeight > el.clientHeight + 1))
        out.push(`${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}" cut`);
    }
    return out;
  });
}
