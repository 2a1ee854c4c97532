import type { ConfigPageData } from './config-page-data.js';

/** The table's rule options with one changed (an option back at its default is dropped), as the JSON the host takes. */
export function withOption(page: ConfigPageData, option: string, value: string, dflt: string | undefined): string {
  const current = page.items.find((i) => i.key === 'profileOptions')?.value ?? '{}';
  let options: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(current);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) options = { ...parsed };
  } catch {
    // The host sent the options as JSON; anything else starts from none.
  }
  const v: unknown = JSON.parse(value);
  if (dflt !== undefined && value === toJson(dflt)) delete options[option];
  else options[option] = v;
  return JSON.stringify(options);
}

/** A config item's text as JSON (strings come as they are, the rest as JSON already). */
export function toJson(text: string): string {
  try {
    JSON.parse(text);
    return text;
  } catch {
    return JSON.stringify(text);
  }
}
