// Board state: what the board shows, read from the server's data, and the
// pure questions asked of it (which moves start on a square, where they go,
// which square is under a point). No DOM here.

export const FILES = 'abcdefgh';

/** Placement field -> { 'e1': 'K', ... }. */
export function parsePlacement(placement) {
  const out = {};
  const rows = placement.split('[')[0].split('/');
  rows.forEach((row, i) => {
    const rank = 8 - i;
    let f = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) f += parseInt(ch, 10);
      else if (/[a-zA-Z]/.test(ch)) { out[FILES[f] + rank] = ch; f += 1; }
    }
  });
  return out;
}

/** Pocket counts from a FEN's '[...]' part: {w:{Q:1}, b:{}}. */
export function parsePockets(fen) {
  const p = { w: {}, b: {} };
  const m = /\[([^\]]*)\]/.exec(fen.split(' ')[0]);
  if (!m) return p;
  for (const c of m[1]) {
    if (!/[a-zA-Z]/.test(c)) continue;
    const side = c === c.toUpperCase() ? p.w : p.b;
    side[c.toUpperCase()] = (side[c.toUpperCase()] || 0) + 1;
  }
  return p;
}

/**
 * The data a page hands to `Board.set`, normalised: { pieces, pockets,
 * state (the server's variant state, for the marks on squares),
 * state_lines (the variant's state in sentences), pocket_name, pocket_note
 * and pocket_why (why each piece beside the board may not come in now), all
 * from the server, which has them from the variant's own code; legal ({from: [[uci, san, kind]]},
 * '@' for placements), turn, check, last: {from, to}, interactive,
 * premovable (the colour that may premove, or null), variant }.
 */
export function normalise(data) {
  const d = { ...data };
  d.pieces = parsePlacement(d.board || (d.fen || '').split(' ')[0] || '');
  d.pockets = d.pockets || parsePockets(d.fen || '');
  d.state = d.state || null;
  d.state_lines = d.state_lines || [];
  d.pocket_why = d.pocket_why || { w: {}, b: {} };
  d.legal = d.legal || {};
  d.turn = d.turn || 'w';
  d.premovable = d.premovable || null;
  return d;
}

export const emptyData = () => normalise({ fen: '8/8/8/8/8/8/8/8', interactive: false });

export function colorOf(piece) {
  return piece === piece.toUpperCase() ? 'w' : 'b';
}

/** The legal moves a selection may make: {sq} or {drop: 'N'}. */
export function movesFor(d, sel) {
  if (!sel || sel.pre || !d.interactive) return [];
  if (sel.drop) return (d.legal['@'] || []).filter((m) => m[0][0] === sel.drop);
  return d.legal[sel.sq] || [];
}

/** Destination square -> the moves going there (flips stay on their square: not a destination). */
export function dests(d, sel) {
  const out = new Map();
  if (sel && sel.pre) {
    // A premove: any square not held by one of the mover's own pieces (the
    // rules are asked when the turn comes).
    for (let r = 1; r <= 8; r++) {
      for (const f of FILES) {
        const sq = f + r;
        const p = d.pieces[sq];
        if (sq !== sel.sq && !(p && colorOf(p) === d.premovable)) out.set(sq, []);
      }
    }
    return out;
  }
  for (const m of movesFor(d, sel)) {
    if (!sel.drop && m[2] === 'flip') continue;
    const to = m[0].slice(2, 4);
    if (!out.has(to)) out.set(to, []);
    out.get(to).push(m);
  }
  return out;
}

/** May the piece on `sq` be picked up: a legal move now, or a premove. */
export function pickable(d, sq) {
  if (d.interactive) return (d.legal[sq] || []).length > 0;
  const p = d.pieces[sq];
  return !!(d.premovable && p && colorOf(p) === d.premovable);
}

/** Top-left corner of a square in the 800x800 view box. */
export function xy(orientation, sq) {
  const f = FILES.indexOf(sq[0]);
  const r = parseInt(sq[1], 10) - 1;
  return orientation === 'w' ? [f * 100, (7 - r) * 100] : [(7 - f) * 100, r * 100];
}

/** The square under a client point, given the board's client rectangle. */
export function squareAt(orientation, rect, clientX, clientY) {
  const x = Math.floor(((clientX - rect.left) / rect.width) * 8);
  const y = Math.floor(((clientY - rect.top) / rect.height) * 8);
  if (x < 0 || x > 7 || y < 0 || y > 7) return null;
  return orientation === 'w' ? FILES[x] + (8 - y) : FILES[7 - x] + (y + 1);
}
