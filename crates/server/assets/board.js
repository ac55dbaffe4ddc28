// The board: an SVG drawn from the server's data (placement, pockets, legal
// moves as [uci, san, kind] grouped by from-square, '@' for placements). It
// knows no rules: every hint comes from the legal move list.
import { pieceSvg, pieceIcon, ROLE_NAMES } from './pieces.js';

const NS = 'http://www.w3.org/2000/svg';
const FILES = 'abcdefgh';

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

function el(name, attrs = {}) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

export class Board {
  /**
   * @param {HTMLElement} root container
   * @param {object} opts { onMove(uci), onHint(text), pockets: {top, bottom} elements }
   */
  constructor(root, opts = {}) {
    this.root = root;
    this.opts = opts;
    this.orientation = 'w';
    this.data = { pieces: {}, legal: {}, pockets: { w: {}, b: {} }, state: null, turn: 'w' };
    this.selected = null; // {sq} or {drop: 'N'}
    this.svg = el('svg', { viewBox: '0 0 800 800', class: 'board-svg', role: 'img' });
    root.appendChild(this.svg);
    this.chooser = document.createElement('div');
    this.chooser.className = 'chooser hidden';
    root.appendChild(this.chooser);
    this.info = document.createElement('div');
    this.info.className = 'vstate';
    root.appendChild(this.info);
    this.svg.addEventListener('pointerdown', (e) => this.pointerDown(e));
    this.svg.addEventListener('pointermove', (e) => this.pointerMove(e));
    this.svg.addEventListener('pointerup', (e) => this.pointerUp(e));
    this.svg.addEventListener('pointercancel', () => this.cancelDrag());
    this.svg.addEventListener('contextmenu', (e) => e.preventDefault());
    window.addEventListener('pointerup', (e) => { if (this.pocketDrag) this.pocketDrop(e); });
    window.addEventListener('pointermove', (e) => { if (this.pocketDrag) this.movePocketGhost(e); });
    this.render();
  }

  /**
   * data: { fen or board, pockets, state (the server's variant state: rings,
   * tainted pawns, flip rights, hands), legal, turn, check, last: {from,to},
   * interactive, variant }
   */
  set(data) {
    const d = { ...data };
    d.pieces = parsePlacement(d.board || (d.fen || '').split(' ')[0] || '');
    d.pockets = d.pockets || parsePockets(d.fen || '');
    d.state = d.state || null;
    d.legal = d.legal || {};
    this.data = d;
    if (this.selected && !this.movesFor(this.selected).length) this.selected = null;
    this.hideChooser();
    this.render();
  }

  flip() {
    this.orientation = this.orientation === 'w' ? 'b' : 'w';
    this.render();
  }

  setOrientation(c) {
    this.orientation = c;
    this.render();
  }

  xy(sq) {
    const f = FILES.indexOf(sq[0]);
    const r = parseInt(sq[1], 10) - 1;
    return this.orientation === 'w' ? [f * 100, (7 - r) * 100] : [(7 - f) * 100, r * 100];
  }

  squareAt(clientX, clientY) {
    const rect = this.svg.getBoundingClientRect();
    const x = Math.floor(((clientX - rect.left) / rect.width) * 8);
    const y = Math.floor(((clientY - rect.top) / rect.height) * 8);
    if (x < 0 || x > 7 || y < 0 || y > 7) return null;
    return this.orientation === 'w' ? FILES[x] + (8 - y) : FILES[7 - x] + (y + 1);
  }

  movesFor(sel) {
    if (!sel || !this.data.interactive) return [];
    if (sel.drop) return (this.data.legal['@'] || []).filter((m) => m[0][0] === sel.drop);
    return this.data.legal[sel.sq] || [];
  }

  dests(sel) {
    const out = new Map();
    for (const m of this.movesFor(sel)) {
      const to = sel.drop ? m[0].slice(2, 4) : m[0].slice(2, 4);
      if (!sel.drop && m[2] === 'flip') continue;
      if (!out.has(to)) out.set(to, []);
      out.get(to).push(m);
    }
    return out;
  }

  /** The rings as the server reports them (Magic Ring): [{owner, square, level, power, active}]. */
  rings() {
    return (this.data.state && this.data.state.rings) || [];
  }

  /** One line of variant state under the board, in words. */
  renderInfo() {
    const st = this.data.state;
    const W = { w: 'White', b: 'Black' };
    const parts = [];
    if (st && st.flips) {
      parts.push('May still flip a pawn into a Genie: ' + (['w', 'b'].filter((c) => st.flips[c]).map((c) => W[c]).join(', ') || 'nobody') +
        (st.own_half ? ' (on its own half only)' : ''));
    }
    if (st && st.king_first) parts.push(`${W[this.data.turn]} must place the King first.`);
    if (st && st.hands) {
      for (const c of ['w', 'b']) {
        const h = st.hands[c];
        const hand = [h.N ? `${h.N} Knight${h.N > 1 ? 's' : ''}` : '', h.B ? `${h.B} Bishop${h.B > 1 ? 's' : ''}` : ''].filter(Boolean).join(', ') || 'empty hand';
        parts.push(`${W[c]}: ${hand}; re-entry ${st.reentry_used[c] ? 'used' : 'unused'}; ${st.had_clown[c] ? 'has had a Clown' : 'no Clown yet'}`);
      }
    }
    if (st && st.rings) {
      const NAMES = { Q: 'Queen', R: 'Rook', B: 'Bishop', N: 'Knight', K: 'King' };
      for (const r of st.rings) {
        // A ring is named by its first owner; after a capture the other
        // side's piece carries it, and that side uses and passes it.
        const on = this.data.pieces[r.square];
        const holder = r.holder || r.owner;
        const power = r.power ? `${NAMES[r.power]} power${r.active ? '' : ' (unused on a King)'}` : 'no power yet';
        const carrier = on ? `${W[holder]}'s ${ROLE_NAMES[on.toUpperCase()]} on ${r.square}` : r.square;
        const taken = holder !== r.owner ? ` (captured: ${W[holder]} holds it now)` : '';
        parts.push(`${W[r.owner]}'s ring${taken}: ${carrier}, level ${r.level}, ${power}${holder !== r.owner && r.power ? ' for ' + W[holder] : ''}`);
      }
      if (st.tainted.length) parts.push('Tainted pawns (no promotion, no double step): ' + st.tainted.join(', '));
      parts.push('Powers: ' + st.powers);
    }
    this.info.innerHTML = '';
    this.info.classList.toggle('hidden', parts.length === 0);
    for (const p of parts) {
      const div = document.createElement('div');
      div.textContent = p;
      this.info.appendChild(div);
    }
  }

  render() {
    const svg = this.svg;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const d = this.data;
    const sel = this.selected;
    const dests = this.dests(sel);
    for (let r = 1; r <= 8; r++) {
      for (let f = 0; f < 8; f++) {
        const sq = FILES[f] + r;
        const [x, y] = this.xy(sq);
        const light = (f + r) % 2 === 0; // a1 (0 + 1) is dark
        svg.appendChild(el('rect', { x, y, width: 100, height: 100, class: `sq ${light ? 'light' : 'dark'}`, 'data-square': sq }));
        if (d.last && (d.last.from === sq || d.last.to === sq)) svg.appendChild(el('rect', { x, y, width: 100, height: 100, class: 'hl-last' }));
        if (sel && sel.sq === sq) svg.appendChild(el('rect', { x, y, width: 100, height: 100, class: 'hl-selected' }));
        if (sel && sel.drop && dests.has(sq)) svg.appendChild(el('rect', { x, y, width: 100, height: 100, class: 'hl-zone' }));
        if (d.check === sq) svg.appendChild(el('circle', { cx: x + 50, cy: y + 50, r: 50, class: 'hl-check' }));
      }
    }
    // coordinates
    for (let i = 0; i < 8; i++) {
      const fileSq = this.orientation === 'w' ? FILES[i] + '1' : FILES[7 - i] + '8';
      const [fx, fy] = this.xy(fileSq);
      const t = el('text', { x: fx + 92, y: fy + 95, class: `coord ${i % 2 === 0 ? 'on-dark' : 'on-light'}`, 'text-anchor': 'end' });
      t.textContent = fileSq[0];
      svg.appendChild(t);
      const rankSq = this.orientation === 'w' ? 'a' + (8 - i) : 'h' + (i + 1);
      const [rx, ry] = this.xy(rankSq);
      const t2 = el('text', { x: rx + 5, y: ry + 20, class: `coord ${i % 2 === 0 ? 'on-light' : 'on-dark'}` });
      t2.textContent = rankSq[1];
      svg.appendChild(t2);
    }
    for (const [sq, p] of Object.entries(d.pieces)) {
      if (this.drag && this.drag.from === sq && this.drag.moving) continue;
      const [x, y] = this.xy(sq);
      const g = el('g', { transform: `translate(${x} ${y})`, class: 'piece', 'data-piece': p, 'data-square': sq });
      g.innerHTML = pieceSvg(p);
      svg.appendChild(g);
    }
    // Rings: a gold ring badge at the carrier's top corner (White's at the
    // right with a light core, Black's at the left with a dark core); inside
    // it the level and the power letter it grants (greyed on a King, which
    // gains nothing from a ring).
    for (const ring of this.rings()) {
      const [x, y] = this.xy(ring.square);
      const cx = ring.owner === 'w' ? 81 : 19;
      const captured = ring.holder && ring.holder !== ring.owner;
      const g = el('g', { transform: `translate(${x} ${y})`, class: `ring ring-${ring.owner}${ring.active ? ' active' : ''}${captured ? ' captured' : ''}`, 'data-ring': ring.owner, 'data-square': ring.square });
      const label = `${ring.level}${ring.power || ''}`;
      g.innerHTML = `<circle cx="${cx}" cy="19" r="15" class="ring-band"/>` +
        `<text x="${cx}" y="24" text-anchor="middle" class="ring-label${ring.power && !ring.active ? ' idle' : ''}">${label}</text>`;
      const title = el('title');
      title.textContent = `${ring.owner === 'w' ? 'White' : 'Black'}'s ring` + (captured ? `, captured by ${ring.holder === 'w' ? 'White' : 'Black'}` : '') +
        `, level ${ring.level}` + (ring.power ? `, grants ${ring.power}${ring.active ? '' : ' (not on a King)'}` : '');
      g.appendChild(title);
      svg.appendChild(g);
    }
    for (const sq of (d.state && d.state.tainted) || []) {
      const [x, y] = this.xy(sq);
      const g = el('g', { transform: `translate(${x} ${y})`, class: 'tainted', 'data-square': sq });
      g.innerHTML = '<circle cx="14" cy="86" r="9"/><text x="14" y="91" text-anchor="middle">t</text>';
      svg.appendChild(g);
    }
    for (const [to, ms] of dests) {
      const [x, y] = this.xy(to);
      const occupied = d.pieces[to] !== undefined;
      const pass = ms.some((m) => m[2] === 'ringpass');
      if (pass) svg.appendChild(el('circle', { cx: x + 50, cy: y + 50, r: 40, class: 'dot-pass' }));
      else if (occupied) svg.appendChild(el('circle', { cx: x + 50, cy: y + 50, r: 44, class: 'dot-capture' }));
      else svg.appendChild(el('circle', { cx: x + 50, cy: y + 50, r: 15, class: 'dot' }));
    }
    if (this.drag && this.drag.moving) {
      const g = el('g', { class: 'piece ghost', transform: `translate(${this.drag.x - 50} ${this.drag.y - 50})` });
      g.innerHTML = pieceSvg(this.drag.piece);
      svg.appendChild(g);
    }
    this.renderPockets();
    this.renderHint();
    this.renderInfo();
  }

  renderPockets() {
    const { pockets: slots } = this.opts;
    if (!slots) return;
    const d = this.data;
    const drops = d.interactive ? d.legal['@'] || [] : [];
    const dropRoles = new Set(drops.map((m) => m[0][0]));
    const mine = d.turn;
    const sides = this.orientation === 'w' ? { bottom: 'w', top: 'b' } : { bottom: 'b', top: 'w' };
    for (const [where, color] of Object.entries(sides)) {
      const box = slots[where];
      if (!box) continue;
      const counts = { ...(d.pockets[color] || {}) };
      if (color === mine) for (const r of dropRoles) if (!counts[r]) counts[r] = 0;
      const roles = 'KQGRBCNP'.split('').filter((r) => counts[r] !== undefined);
      box.innerHTML = '';
      box.classList.toggle('empty', roles.length === 0);
      if (!roles.length) continue;
      const label = document.createElement('div');
      label.className = 'pocket-label';
      label.textContent = (this.opts.pocketName || 'Reserve') + ' — ' + (color === 'w' ? 'White' : 'Black');
      box.appendChild(label);
      const whys = new Set();
      for (const r of roles) {
        const letter = color === 'w' ? r : r.toLowerCase();
        const b = document.createElement('button');
        const can = color === mine && dropRoles.has(r);
        b.className = 'pocket-piece' + (can ? ' can' : '') + (this.selected && this.selected.drop === r && can ? ' selected' : '');
        b.dataset.dropRole = r;
        b.dataset.color = color;
        const why = can ? '' : this.pocketWhy(color, r);
        if (why) whys.add(why);
        b.title = ROLE_NAMES[r] + (can ? ': click or drag onto a highlighted square' : why ? ': ' + why : '');
        b.innerHTML = pieceIcon(letter, 40) + (counts[r] ? `<span class="count">${counts[r]}</span>` : '');
        b.disabled = !can;
        if (can) {
          b.addEventListener('pointerdown', (e) => {
            e.preventDefault();
            this.selected = { drop: r };
            this.pocketDrag = { role: r, letter, startX: e.clientX, startY: e.clientY, moved: false };
            this.render();
          });
        }
        box.appendChild(b);
      }
      // Why the greyed pieces may not come in now, in words (a phone has
      // no hover for the title).
      if (whys.size) {
        const w = document.createElement('div');
        w.className = 'pocket-why';
        w.textContent = [...whys].join(' ');
        box.appendChild(w);
      }
    }
  }

  /** Why `color`'s pocket piece `role` may not be placed now ('' when the
   *  board is only being shown, not played on). From the server's state. */
  pocketWhy(color, role) {
    const d = this.data;
    const st = d.state || {};
    const W = { w: 'White', b: 'Black' };
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

  movePocketGhost(e) {
    const pd = this.pocketDrag;
    if (Math.hypot(e.clientX - pd.startX, e.clientY - pd.startY) > 6) pd.moved = true;
    if (!pd.moved) return;
    if (!this.ghost) {
      this.ghost = document.createElement('div');
      this.ghost.className = 'drag-ghost';
      this.ghost.innerHTML = pieceIcon(pd.letter, 64);
      document.body.appendChild(this.ghost);
    }
    this.ghost.style.left = e.clientX - 32 + 'px';
    this.ghost.style.top = e.clientY - 32 + 'px';
  }

  pocketDrop(e) {
    const pd = this.pocketDrag;
    this.pocketDrag = null;
    if (this.ghost) { this.ghost.remove(); this.ghost = null; }
    if (!pd.moved) return; // a click: the role stays selected
    const sq = this.squareAt(e.clientX, e.clientY);
    const ms = sq ? this.dests({ drop: pd.role }).get(sq) : null;
    if (ms) this.choose(ms);
    else { this.selected = null; this.render(); }
  }

  renderHint() {
    const hint = this.opts.hint;
    if (!hint) return;
    hint.innerHTML = '';
    const sel = this.selected;
    if (!sel) return;
    const ms = this.movesFor(sel);
    const flips = ms.filter((m) => m[2] === 'flip');
    for (const m of flips) {
      const b = document.createElement('button');
      b.className = 'action';
      b.dataset.uci = m[0];
      b.innerHTML = `${pieceIcon(this.data.turn === 'w' ? 'G' : 'g', 28)} Flip this pawn into a Genie (${m[1]})`;
      b.addEventListener('click', () => this.play(m[0]));
      hint.appendChild(b);
    }
    const kinds = new Set(ms.map((m) => m[2]));
    const notes = [];
    if (sel.drop) notes.push(this.data.variant === 'clown' ? 'Re-entry: place the piece on a highlighted square of your entry zone.' : 'Place the piece on a highlighted square.');
    if (kinds.has('declare')) notes.push('This Knight may be declared a Clown on this move: pick a square, then choose.');
    if (kinds.has('ringpass')) notes.push('Gold circles: pass the ring to that neighbour.');
    if (kinds.has('promotion')) notes.push('Promotion: you will choose the piece.');
    if (notes.length) {
      const p = document.createElement('span');
      p.className = 'hint-text';
      p.textContent = notes.join(' ');
      hint.appendChild(p);
    }
  }

  hideChooser() {
    this.chooser.classList.add('hidden');
    this.chooser.innerHTML = '';
  }

  /** Several moves to one square: promotion piece, declaration, which ring. */
  choose(ms) {
    if (ms.length === 1) return this.play(ms[0][0]);
    this.chooser.innerHTML = '<div class="chooser-title">Choose</div>';
    for (const m of ms) {
      const b = document.createElement('button');
      b.dataset.uci = m[0];
      let icon = '';
      if (m[2] === 'promotion') {
        const r = m[0][4].toUpperCase();
        icon = pieceIcon(this.data.turn === 'w' ? r : r.toLowerCase(), 48);
        b.title = ROLE_NAMES[r];
      } else if (m[2] === 'declare') {
        icon = pieceIcon(this.data.turn === 'w' ? 'C' : 'c', 48) + ' Declare a Clown';
      } else if (m[2] === 'move') {
        icon = pieceIcon(this.data.turn === 'w' ? 'N' : 'n', 48) + ' Stay a Knight';
      }
      b.innerHTML = `${icon}<span class="san">${m[1]}</span>`;
      b.addEventListener('click', () => { this.hideChooser(); this.play(m[0]); });
      this.chooser.appendChild(b);
    }
    const cancel = document.createElement('button');
    cancel.className = 'cancel';
    cancel.textContent = 'Cancel';
    cancel.addEventListener('click', () => { this.hideChooser(); this.selected = null; this.render(); });
    this.chooser.appendChild(cancel);
    this.chooser.classList.remove('hidden');
  }

  play(uci) {
    this.selected = null;
    this.drag = null;
    // Show the move at once; the server's state replaces it.
    this.render();
    if (this.opts.onMove) this.opts.onMove(uci);
  }

  pointerDown(e) {
    if (e.button !== 0) return;
    e.preventDefault();
    const sq = this.squareAt(e.clientX, e.clientY);
    if (!sq) return;
    this.hideChooser();
    const sel = this.selected;
    if (sel && this.dests(sel).has(sq)) {
      this.pendingTarget = sq;
      return;
    }
    this.pendingTarget = null;
    if ((this.data.legal[sq] || []).length && this.data.interactive) {
      const wasSelected = sel && sel.sq === sq;
      this.selected = { sq };
      const pt = this.svgPoint(e);
      this.drag = { from: sq, piece: this.data.pieces[sq], startX: e.clientX, startY: e.clientY, x: pt[0], y: pt[1], moving: false, wasSelected };
      try { this.svg.setPointerCapture(e.pointerId); } catch (_) { /* synthetic events */ }
    } else {
      this.selected = null;
    }
    this.render();
  }

  svgPoint(e) {
    const rect = this.svg.getBoundingClientRect();
    return [((e.clientX - rect.left) / rect.width) * 800, ((e.clientY - rect.top) / rect.height) * 800];
  }

  pointerMove(e) {
    if (!this.drag) return;
    if (!this.drag.moving && Math.hypot(e.clientX - this.drag.startX, e.clientY - this.drag.startY) < 6) return;
    this.drag.moving = true;
    [this.drag.x, this.drag.y] = this.svgPoint(e);
    this.render();
  }

  pointerUp(e) {
    const sq = this.squareAt(e.clientX, e.clientY);
    if (this.pendingTarget) {
      const target = this.pendingTarget;
      this.pendingTarget = null;
      if (sq === target) return this.choose(this.dests(this.selected).get(sq));
      return;
    }
    const drag = this.drag;
    this.drag = null;
    if (!drag) return;
    if (drag.moving) {
      const ms = sq ? this.dests({ sq: drag.from }).get(sq) : null;
      if (ms) return this.choose(ms);
      this.render();
      return;
    }
    // A click on the piece already selected deselects it.
    if (drag.wasSelected && sq === drag.from && !this.movesFor({ sq }).some((m) => m[2] === 'flip')) {
      this.selected = null;
      this.render();
    }
  }

  cancelDrag() {
    this.drag = null;
    this.pendingTarget = null;
    this.render();
  }
}
