import bold from '../../assets/fonts/TableSansHK-Bold.woff2?url';
import regular from '../../assets/fonts/TableSansHK-Regular.woff2?url';

/**
 * Loads the bundled face before any text is drawn: pixi rasterises text once, so a text drawn
 * with a fallback font would stay wrong until it next changes.
 */
export async function loadFonts(): Promise<void> {
  const faces = [new FontFace('Table Sans HK', `url(${regular})`, { weight: '400' }), new FontFace('Table Sans HK', `url(${bold})`, { weight: '600 700' })];
  for (const face of faces) document.fonts.add(await face.load());
}
