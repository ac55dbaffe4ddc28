// Premoves: one move queued while the opponent thinks, played when the turn
// comes if it is legal then, dropped otherwise. Cancelled by a click on an
// empty square or the board's edge, a right click, or Esc.

export class Premove {
  /** board: the Board; it shows the queued move and reports new ones through opts.onPremove. */
  constructor(board) {
    this.board = board;
    this.queued = null;
  }

  /** Called by the board with {from, to}, or null when cancelled there. */
  set(p) {
    this.queued = p;
    if (this.board.premove !== p) this.board.setPremove(p);
  }

  cancel() {
    if (!this.queued) return;
    this.queued = null;
    this.board.setPremove(null);
  }

  /**
   * The turn has come: the queued move's uci if the legal list
   * ({from: [[uci, san, kind]]}) has it, else null; the queue empties
   * either way. A promotion becomes a Queen (else the first piece offered),
   * a Knight move that could declare a Clown stays a Knight move.
   */
  take(legal) {
    const p = this.queued;
    if (!p) return null;
    this.cancel();
    const ms = (legal[p.from] || []).filter((m) => m[0].slice(2, 4) === p.to && m[2] !== 'flip');
    if (!ms.length) return null;
    const pick = ms.find((m) => m[2] === 'promotion' && m[0][4] === 'q') || ms.find((m) => m[2] === 'move') || ms[0];
    return pick[0];
  }
}
