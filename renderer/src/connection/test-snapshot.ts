// Test-only: a host's snapshot of station 2's view (a blackjack seat, betting open), as the screen's tests answer with.
import { encode } from '../../../protocol/index.js';

export function stationSnapshot(version: number): string {
  return encode({
    type: 'snapshot',
    view: 'station/2',
    version,
    state: {
      kind: 'station',
      station: 2,
      seat: 2,
      game: 'blackjack',
      currency: 'MOP',
      limits: { min: 10000, max: 500000 },
      language: 'zh-Hant',
      credit: 50000,
      betting: { open: true, spots: [{ bet: 'main', min: 10000, max: 500000 }], bets: [] },
      decision: null,
    },
  });
}
