/**
 * The catalogue key of a decision's words, for the station's buttons and service mode's recall
 * alike. War's surrender loses half the bet: its own words, not blackjack's «放棄牌局».
 */
export function actionKey(state: { readonly game: string }, action: string): string {
  return state.game === 'war' && action === 'surrender' ? 'action.warSurrender' : `action.${action}`;
}
