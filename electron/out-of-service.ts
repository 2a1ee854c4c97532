import { catalogues, SOURCE_LANGUAGE, wordAt } from '../locales/index.js';

/** Where the page is served (app://kiosk/out-of-service), among the kiosk's own pages. */
export const OUT_OF_SERVICE_PATH = '/out-of-service';

/** The page's words, in every language, from the catalogues (locales/catalogues/*.json `outOfService.*`). */
export const OUT_OF_SERVICE_KEYS = ['outOfService.title', 'outOfService.body', 'outOfService.staff'] as const;

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The out-of-service page: shown on every display when the kiosk gave up relaunching (the table
 * host or the screens kept dying), so that floor staff see a table closed in every language
 * rather than a desktop or a black screen. No script, nothing loaded: its words are in it.
 */
export function outOfServicePage(): string {
  const blocks = Object.entries(catalogues)
    .map(([lang, catalogue]) => {
      const word = (key: (typeof OUT_OF_SERVICE_KEYS)[number]) => {
        const w = wordAt(catalogue, key);
        if (w === undefined) throw new Error(`locales/catalogues/${lang}.json has no ${key}`);
        return escape(w);
      };
      return `<section lang="${lang}"><h1>${word('outOfService.title')}</h1><p>${word('outOfService.body')}</p><p class="staff">${word('outOfService.staff')}</p></section>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="${SOURCE_LANGUAGE}"><head><meta charset="utf-8"><title>${escape(wordAt(catalogues[SOURCE_LANGUAGE], 'outOfService.title') ?? '')}</title>
<style>
html,body{margin:0;height:100%;background:#05140e;color:#f4e9c8;font-family:"Table Sans HK","Noto Sans CJK TC","Noto Sans CJK HK",sans-serif;cursor:none;user-select:none}
body{display:flex;flex-direction:column;justify-content:center;align-items:center;gap:4vh;text-align:center}
h1{font-size:6vh;margin:0 0 1vh}p{font-size:3vh;margin:.5vh}.staff{opacity:.7;font-size:2.2vh}
</style></head><body>
${blocks}
</body></html>`;
}

/** The page's own header CSP: nothing may load or run. */
export const OUT_OF_SERVICE_CSP = "default-src 'none'; style-src 'unsafe-inline'; font-src 'self'";
