import i18next, { type i18n } from 'i18next';
import { catalogues } from '../../../locales/index.js';
import { Currency, Language } from '../../../protocol/index.js';
import { formatMoney } from './money.js';

/**
 * One i18next instance per screen. Catalogues are bundled (a kiosk has no backend to fetch them
 * from); `{{amount, money}}` formats integer minor units in the table currency passed as the
 * `currency` option.
 */
export async function createI18n(language: Language): Promise<i18n> {
  const instance = i18next.createInstance();
  await instance.init({
    lng: language,
    fallbackLng: 'zh-Hant',
    supportedLngs: [...Language.options],
    resources: Object.fromEntries(Object.entries(catalogues).map(([lng, cat]) => [lng, { translation: cat }])),
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  instance.services.formatter?.add('money', (value: unknown, lng: string | undefined, options: Record<string, unknown>) => {
    const currency = Currency.parse(options.currency);
    const language = Language.safeParse(lng);
    return formatMoney(Number(value), currency, language.success ? language.data : 'zh-Hant');
  });
  return instance;
}
