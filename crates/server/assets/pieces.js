// The project's own piece drawings, each in a 100x100 box, in two sets:
// "classic" (figures) and "disc" (round tokens with the piece's letter, as
// on a draughts or xiangqi board: easy to tell apart at a small size). Both
// are drawn for Chimera and licensed as the project is: MIT OR Apache-2.0.
// The Genie is a circle, as its inventor pictures it; the Clown is a Knight
// facing backwards (to the right), as its inventor marks it, with a red nose.
// The set is the page's choice (theme.js: <html data-pieces>).
import { t } from './i18n.js';

const KNIGHT_PATH =
  'M28 88 L76 88 L73 70 C72 52 80 36 66 22 L62 10 L55 21 C44 21 34 28 27 40 ' +
  'L18 56 C16 62 23 66 28 61 L36 53 C41 55 47 53 50 49 C48 60 36 70 28 88 Z';

function body(role, fill, stroke, detail) {
  const s = `fill="${fill}" stroke="${stroke}" stroke-width="3.5" stroke-linejoin="round"`;
  const d = `fill="none" stroke="${detail}" stroke-width="3"`;
  const base = `<path ${s} d="M24 90 L76 90 L76 82 C76 78 24 78 24 82 Z"/>`;
  switch (role) {
    case 'P':
      return `<path ${s} d="M30 88 L70 88 C70 72 60 64 57 58 C64 54 66 46 62 40 C68 36 68 24 60 20 C56 16 44 16 40 20 C32 24 32 36 38 40 C34 46 36 54 43 58 C40 64 30 72 30 88 Z"/>`;
    case 'R':
      return `${base}<path ${s} d="M30 80 L34 42 L66 42 L70 80 Z"/>` +
        `<path ${s} d="M26 42 L74 42 L74 18 L64 18 L64 26 L56 26 L56 18 L44 18 L44 26 L36 26 L36 18 L26 18 Z"/>` +
        `<path ${d} d="M34 48 L66 48 M32 74 L68 74"/>`;
    case 'N':
      return `<path ${s} d="${KNIGHT_PATH}"/><circle cx="50" cy="32" r="3.5" fill="${detail}"/>` +
        `<path ${d} d="M60 24 C66 40 66 60 60 84"/>`;
    case 'C':
      return `<g transform="translate(100 0) scale(-1 1)"><path ${s} d="${KNIGHT_PATH}"/>` +
        `<circle cx="50" cy="32" r="3.5" fill="${detail}"/><path ${d} d="M60 24 C66 40 66 60 60 84"/>` +
        `<circle cx="18" cy="58" r="6" fill="#d62828" stroke="${stroke}" stroke-width="2"/></g>` +
        `<path fill="#f4c430" stroke="${stroke}" stroke-width="2.5" d="M40 14 L34 2 L46 8 L50 0 L54 8 L66 2 L60 14 Z"/>`;
    case 'B':
      return `${base}<path ${s} d="M34 80 C30 70 32 60 38 54 C30 46 32 30 50 16 C68 30 70 46 62 54 C68 60 70 70 66 80 Z"/>` +
        `<circle ${s} cx="50" cy="12" r="5"/><path ${d} d="M50 30 L50 46 M42 38 L58 38 M38 60 L62 60"/>`;
    case 'Q':
      return `${base}<path ${s} d="M26 80 L20 30 L36 60 L40 22 L50 58 L60 22 L64 60 L80 30 L74 80 Z"/>` +
        [20, 40, 60, 80].map((x, i) => `<circle ${s} cx="${x}" cy="${i % 3 === 0 ? 26 : 18}" r="5"/>`).join('') +
        `<path ${d} d="M28 72 L72 72"/>`;
    case 'K':
      return `${base}<path ${s} d="M24 80 C16 60 18 42 32 40 C40 40 46 48 50 56 C54 48 60 40 68 40 C82 42 84 60 76 80 Z"/>` +
        `<path ${s} d="M50 56 C46 46 44 38 50 32 C56 38 54 46 50 56 Z"/>` +
        `<path fill="none" stroke="${stroke}" stroke-width="4" d="M50 6 L50 30 M42 14 L58 14"/>` +
        `<path ${d} d="M28 72 L72 72"/>`;
    case 'G':
      return `<circle ${s} cx="50" cy="50" r="36"/><circle fill="none" stroke="${detail}" stroke-width="3" cx="50" cy="50" r="25"/>` +
        `<path fill="${detail}" d="M50 36 C56 44 58 50 50 62 C42 50 44 44 50 36 Z"/>`;
    default:
      return `<text x="50" y="64" font-size="44" text-anchor="middle" fill="${stroke}">?</text>`;
  }
}

/** The "disc" set: a token with a rim and the piece's letter; the Genie's
 *  token is plain (it is a circle in either set), the Clown's has the red
 *  nose. */
function disc(role, fill, stroke, detail) {
  const rim = `<circle cx="50" cy="50" r="40" fill="${fill}" stroke="${stroke}" stroke-width="4"/>` +
    `<circle cx="50" cy="50" r="32" fill="none" stroke="${detail}" stroke-width="2"/>`;
  const mark = role === 'G' ? `<circle cx="50" cy="50" r="9" fill="${detail}"/>` :
    `<text x="50" y="51" dominant-baseline="central" text-anchor="middle" font-family="'DejaVu Sans', 'Noto Sans', sans-serif" font-weight="700" font-size="40" fill="${detail}">${role}</text>`;
  const nose = role === 'C' ? '<circle cx="74" cy="30" r="7" fill="#d62828" stroke="#1d1d1d" stroke-width="2"/>' : '';
  return rim + mark + nose;
}

/** The chosen piece set's name ('classic' or 'disc'). */
export function pieceSet() {
  return document.documentElement.dataset.pieces === 'disc' ? 'disc' : 'classic';
}

/** SVG markup (no outer <svg>) for a piece letter: upper case White. */
export function pieceSvg(letter) {
  const white = letter === letter.toUpperCase();
  const role = letter.toUpperCase();
  const draw = pieceSet() === 'disc' ? disc : body;
  return white ? draw(role, '#fbfbf7', '#1d1d1d', '#1d1d1d') : draw(role, '#2b2b2b', '#0c0c0c', '#e8e8e8');
}

/** A standalone <svg> element string for a piece (pockets, choosers). */
export function pieceIcon(letter, size = 44) {
  return `<svg viewBox="0 0 100 100" width="${size}" height="${size}" aria-label="${letter}">${pieceSvg(letter)}</svg>`;
}

export const ROLE_NAMES = {
  P: t('piece-pawn'), N: t('piece-knight'), B: t('piece-bishop'), R: t('piece-rook'), Q: t('piece-queen'), K: t('piece-king'), G: t('piece-genie'), C: t('piece-clown'),
};
