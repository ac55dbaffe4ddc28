// The variants' overlays as data: what the board draws for the server's
// variant state (marks on squares), how it marks special destinations, the
// notes under the board for special moves and the chooser's labels, all
// keyed by the rules crate's move kinds and state fields, never by a
// variant id. The variant's state in words, the pockets' names and why a
// pocket piece may not come in are sent by the server from the variant's
// own code. The board code only walks these tables.
import { pieceIcon, ROLE_NAMES } from '../pieces.js';
import { t } from '../i18n.js';

const W = { w: 'white', b: 'black' };

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
        title: t('ring-title', { owner: W[ring.owner] }) + (captured ? t('ring-captured', { holder: W[ring.holder] }) : '') +
          t('ring-level', { level: ring.level }) + (ring.power ? (ring.active ? t('ring-grants', { power: ring.power }) : t('ring-grants-idle', { power: ring.power })) : ''),
      };
    },
  },
  {
    // Magic Ring: a pawn tainted by a power move (no promotion, no double step).
    name: 'tainted',
    items: (st) => (st && st.tainted) || [],
    square: (sq) => sq,
    draw: () => ({ cls: 'tainted', attrs: {}, html: '<circle cx="14" cy="86" r="9"/><text x="14" y="91" text-anchor="middle">t</text>', title: t('tainted-title') }),
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
  declare: t('note-declare'),
  ringpass: t('note-ringpass'),
  promotion: t('note-promotion'),
};

/** Moves that stay on their square and are offered as buttons under the board. */
export const ACTION_MOVES = {
  flip: (m, turn) => `${pieceIcon(turn === 'w' ? 'G' : 'g', 28)} ${t('action-flip', { square: m[1] })}`,
};

/** The chooser's label for each option (several moves to one square), by move kind. */
export const CHOICE_LABELS = {
  promotion: (m, turn) => {
    const r = m[0][4].toUpperCase();
    return { icon: pieceIcon(turn === 'w' ? r : r.toLowerCase(), 48), title: ROLE_NAMES[r] };
  },
  declare: (m, turn) => ({ icon: pieceIcon(turn === 'w' ? 'C' : 'c', 48) + ' ' + t('choice-declare'), title: t('choice-declare-title') }),
  move: (m, turn) => ({ icon: pieceIcon(turn === 'w' ? 'N' : 'n', 48) + ' ' + t('choice-stay'), title: t('choice-stay') }),
};
