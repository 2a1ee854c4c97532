import type { TFunction } from 'i18next';
import type { Currency, Language, ServiceState } from '../../../../../protocol/index.js';
import { formatMoney } from '../../../../../locales/money.js';
import type { PageActions, PageButton, PageChoices } from './choices.js';
import { wrapRow } from './rows.js';

/** Adds a button (when `show`), lit when `active`. */
export type Btn = (id: string, label: string, press: () => void, show?: boolean, active?: boolean) => void;

/**
 * What every page is drawn with: the screen's language and the session's rights, the screen's
 * choices and actions, and the rows and buttons the page adds to.
 */
export interface PageKit {
  state: ServiceState;
  t: TFunction;
  c: PageChoices;
  a: PageActions;
  language: Language;
  currency: Currency;
  money: (minor: number) => string;
  /** Signed in, and not an auditor (who only reads). */
  canAct: boolean;
  /** A supervisor: the actions that move money or change the rules. */
  sup: boolean;
  rows: string[];
  buttons: PageButton[];
  /** Adds a row, wrapped across as many rows as it takes. */
  wrap: (text: string) => void;
  btn: Btn;
  /** Previous and Next over a page of `size` rows from `page.offset`, each shown only where there is one; `open` asks for the page at an offset. */
  pager: (page: { offset: number; more: boolean }, size: number, open: (offset: number) => void) => void;
}

export function pageKit(state: ServiceState, t: TFunction, c: PageChoices, a: PageActions): PageKit {
  const language: Language = state.language;
  const currency: Currency = state.session?.currency ?? 'MOP';
  const role = state.session?.role;
  const rows: string[] = [];
  const buttons: PageButton[] = [];
  const btn: Btn = (id, label, press, show = true, active = false) => {
    if (show) buttons.push({ id, label, press, active });
  };
  return {
    state,
    t,
    c,
    a,
    language,
    currency,
    money: (m: number) => formatMoney(m, currency, language),
    canAct: role !== undefined && role !== 'auditor',
    sup: role === 'supervisor',
    rows,
    buttons,
    wrap: (text: string) => void rows.push(...wrapRow(text)),
    btn,
    pager: (page, size, open) => {
      btn('page-prev', t('service.action.prev'), () => open(Math.max(0, page.offset - size)), page.offset > 0);
      btn('page-next', t('service.action.next'), () => open(page.offset + size), page.more);
    },
  };
}
