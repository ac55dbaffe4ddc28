// The variants' overlays as data: what the board draws for the server's
// variant state (marks on squares), how it marks special destinations, the
// notes under the board for special moves, the chooser's labels and the
// line of variant state in words. The board code only walks these tables.
import { pieceIcon, ROLE_NAMES } from '../pieces.js';

const W = { w: 'White', b: 'Black' };

/**
 * Marks drawn over pieces, each from a list in the variant state:
 * `items(state)` gives the list, `square(item)` its square, `draw(item)`
 * the mark: { cls, attrs, html (inside a 100x100 box), title }.
 */
export const SQUARE_MARKS = [
  {
    // Magic Ring: a gold ring badge at the carrier's top corner (White's at
    // the right with a light core, Black's at the left with a dark core);
    // inside it the level and the power letter it grants (greyed on a King,
    // which gains nothing from a ring).
    name: 'ring',
    items: (st) => (st && st.rings) || [],
    square: (ring) => ring.square,
    draw: (ring) => {
      const cx = ring.owner === 'w' ? 81 : 19;
      // A ring is named by its first owner; after a capture the other side's
      // piece carries it (the badge says so with the `captured` class).
      const captured = ring.holder && ring.holder !== ring.owner;
      return {
        cls: `ring ring-${ring.owner}${ring.active ? ' active' : ''}${captured ? ' captured' : ''}`,
        attrs: { 'data-ring': ring.owner },
        html: `<circle cx="${cx}" cy="19" r="15" class="ring-band"/>` +
          `<text x="${cx}" y="24" text-anchor="middle" class="ring-label${ring.power && !ring.active ? ' idle' : ''}">${ring.level}${ring.power || ''}</text>`,
        title: `${W[ring.owner]}'s ring` + (captured ? `, captured by ${W[ring.holder]}` : '') +
          `, level ${ring.level}` + (ring.power ? `, grants ${ring.power}${ring.active ? '' : ' (not on a King)'}` : ''),
      };
    },
  },
  {
    // Magic Ring: a pawn tainted by a power move (no promotion, no double step).
    name: 'tainted',
    items: (st) => (st && st.tainted) || [],
    square: (sq) => sq,
    draw: () => ({ cls: 'tainted', attrs: {}, html: '<circle cx="14" cy="86" r="9"/><text x="14" y="91" text-anchor="middle">t</text>', title: 'Tainted pawn: no promotion, no double step' }),
  },
];

/**
 * How a destination is marked, first match wins: `when(moves, occupied)`.
 * Shapes are circles in the square's 100x100 box.
 */
export const DEST_MARKS = [
  { when: (ms) => ms.some((m) => m[2] === 'ringpass'), cls: 'dot-pass', r: 40 },
  { when: (ms, occupied) => occupied, cls: 'dot-capture', r: 44 },
  { when: () => true, cls: 'dot', r: 15 },
];

/** A note under the board when the selected piece has a move of that kind. */
export const MOVE_NOTES = {
  declare: 'This Knight may be declared a Clown on this move: pick a square, then choose.',
  ringpass: 'Gold circles: pass the ring to that neighbour.',
  promotion: 'Promotion: you will choose the piece.',
};

/** The note for a piece picked from the pocket, by variant. */
export const DROP_NOTES = {
  clown: 'Re-entry: place the piece on a highlighted square of your entry zone.',
  default: 'Place the piece on a highlighted square.',
};

/** Moves that stay on their square and are offered as buttons under the board. */
export const ACTION_MOVES = {
  flip: (m, turn) => `${pieceIcon(turn === 'w' ? 'G' : 'g', 28)} Flip this pawn into a Genie (${m[1]})`,
};

/** The chooser's label for each option (several moves to one square), by move kind. */
export const CHOICE_LABELS = {
  promotion: (m, turn) => {
    const r = m[0][4].toUpperCase();
    return { icon: pieceIcon(turn === 'w' ? r : r.toLowerCase(), 48), title: ROLE_NAMES[r] };
  },
  declare: (m, turn) => ({ icon: pieceIcon(turn === 'w' ? 'C' : 'c', 48) + ' Declare a Clown', title: 'Declare this Knight a Clown' }),
  move: (m, turn) => ({ icon: pieceIcon(turn === 'w' ? 'N' : 'n', 48) + ' Stay a Knight', title: 'Stay a Knight' }),
};

const plural = (n, word) => `${n} ${word}${n > 1 ? 's' : ''}`;

/** The line of variant state under the board: each entry gives its sentences, or none. */
export const INFO_LINES = [
  (st) => (st && st.flips
    ? ['May still flip a pawn into a Genie: ' + (['w', 'b'].filter((c) => st.flips[c]).map((c) => W[c]).join(', ') || 'nobody') + (st.own_half ? ' (on its own half only)' : '')]
    : []),
  (st, d) => (st && st.king_first ? [`${W[d.turn]} must place the King first.`] : []),
  (st) => (st && st.hands
    ? ['w', 'b'].map((c) => {
      const h = st.hands[c];
      const hand = [h.N ? plural(h.N, 'Knight') : '', h.B ? plural(h.B, 'Bishop') : ''].filter(Boolean).join(', ') || 'empty hand';
      return `${W[c]}: ${hand}; re-entry ${st.reentry_used[c] ? 'used' : 'unused'}; ${st.had_clown[c] ? 'has had a Clown' : 'no Clown yet'}`;
    })
    : []),
  (st, d) => {
    if (!st || !st.rings) return [];
    const NAMES = { Q: 'Queen', R: 'Rook', B: 'Bishop', N: 'Knight', K: 'King' };
    const out = st.rings.map((r) => {
      // A ring is named by its first owner; after a capture the other
      // side's piece carries it, and that side uses and passes it.
      const on = d.pieces[r.square];
      const holder = r.holder || r.owner;
      const power = r.power ? `${NAMES[r.power]} power${r.active ? '' : ' (unused on a King)'}` : 'no power yet';
      const carrier = on ? `${W[holder]}'s ${ROLE_NAMES[on.toUpperCase()]} on ${r.square}` : r.square;
      const taken = holder !== r.owner ? ` (captured: ${W[holder]} holds it now)` : '';
      return `${W[r.owner]}'s ring${taken}: ${carrier}, level ${r.level}, ${power}${holder !== r.owner && r.power ? ' for ' + W[holder] : ''}`;
    });
    if (st.tainted.length) out.push('Tainted pawns (no promotion, no double step): ' + st.tainted.join(', '));
    out.push('Powers: ' + st.powers);
    return out;
  },
];

/** Why `color`'s pocket piece `role` may not be placed now, in words ('' when
 *  the board is only shown, not played on). From the server's variant state. */
export function pocketWhy(d, color, role) {
  const st = d.state || {};
  if (!d.interactive) return '';
  if (color !== d.turn) return `Only on ${W[color]}'s own turn.`;
  if (st.hands) {
    if (st.reentry_used && st.reentry_used[color]) return 'Re-entry used: one a game.';
    if (st.last_by_clown) return "No re-entry straight after a Clown's move.";
    if (st.last_captured === role) return `The ${ROLE_NAMES[role]} just captured may re-enter from your next turn on.`;
    return 'No empty square of your entry zone keeps your King safe now.';
  }
  if (st.king_first && role !== 'K') return 'Place your King first.';
  return 'No legal square for it now.';
}
