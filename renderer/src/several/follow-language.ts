import type { i18n as I18n } from 'i18next';

/**
 * The page follows the focused table's language: switched once its catalogue has come (a chunk
 * fetched from the host the first time), then `switched` draws the table that asked again. A
 * language asked while another's catalogue was fetched wins, whichever comes last.
 */
export function followLanguage(i18n: I18n, switched: (language: string, table: number) => void): (wanted: string | null, table: number) => void {
  let asked: string | null = null;
  return (wanted, table) => {
    if (!wanted || wanted === asked) return;
    asked = wanted;
    void i18n.changeLanguage(wanted).then(() => {
      if (asked === wanted) switched(wanted, table);
    });
  };
}
