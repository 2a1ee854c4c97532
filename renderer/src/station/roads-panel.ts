import type { TFunction } from 'i18next';
import type { StationState } from '../../../protocol/index.js';
import type { Rect } from '../felt/felt-layout.js';
import { RoadsPanel } from '../roads/roads-panel.js';
import { Panel } from './panel.js';

/** The table display's road panel is drawn for this height; the station's panel scales it down to fit. */
const ROADS_HEIGHT = 1048;

/**
 * Baccarat's road maps on a player's station, over the play area: a remote station has no table
 * display in sight, so it reads the roads here. The same drawing as the table display's panel
 * (from the same public part the host sends every station), scaled to the play area and wider,
 * so that more columns of the shoe fit.
 */
export class StationRoadsPanel extends Panel {
  private readonly roads: RoadsPanel;

  constructor(area: Rect, onClose: () => void) {
    super(area, 'roads-close', onClose);
    const margin = 20;
    const scale = (area.height - 2 * margin) / ROADS_HEIGHT;
    // Left of the close button: the panel's width less the button's column.
    const width = (area.width - 2 * margin - 250) / scale;
    this.roads = new RoadsPanel({ x: 0, y: 0, width, height: ROADS_HEIGHT });
    this.roads.position.set(area.x + margin, area.y + margin);
    this.roads.scale.set(scale);
    this.addChild(this.roads);
  }

  /** What the roads were last given, drawn when the panel opens. */
  private latest: { roads: StationState['roads']; t: TFunction } | null = null;

  open(): void {
    this.visible = true;
    if (this.latest) this.roads.show(this.latest.roads, this.latest.t);
  }

  /**
   * The roads are drawn while the panel is open, and when it opens: closed (nearly always), a coup
   * draws nothing, where every coup's marks were drawn into a Graphics no one saw (issue 52).
   */
  update(state: StationState, t: TFunction): void {
    this.closeButton.setLabel(t('recall.close'));
    this.latest = { roads: state.roads, t };
    if (this.visible) this.roads.show(state.roads, t);
  }
}
