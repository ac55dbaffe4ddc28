// The board component, organised as lichess's chessground is: state
// (board/state.js), the SVG view redrawn layer by layer (board/render.js),
// pointer input (board/drag.js), the HTML overlays (board/overlays.js) and
// the variants' overlays as data (board/variants.js). It knows no rules:
// every hint comes from the server's legal move list ([uci, san, kind]
// grouped by from-square, '@' for placements).
import { t } from './i18n.js';
import { normalise, emptyData, movesFor, dests, pickable, squareAt, parsePlacement, parsePockets } from './board/state.js';
import { Renderer, el } from './board/render.js';
import { bindPointer } from './board/drag.js';
import { Chooser, choiceOptions, renderHint, renderInfo, renderPockets } from './board/overlays.js';

export { parsePlacement, parsePockets };

export class Board {
  /**
   * @param {HTMLElement} root container
   * @param {object} opts { onMove(uci), onPremove({from, to} | null), pockets: {top, bottom} elements,
   *   hint: element, pocketName, fit: the element (board, pockets, players) to fit in the window's height }
   */
  constructor(root, opts = {}) {
    this.root = root;
    this.opts = opts;
    this.orientation = 'w';
    this.data = emptyData();
    this.selected = null; // {sq}, {sq, pre: true} (a premove) or {drop: 'N'}
    this.drag = null;
    this.premove = null; // {from, to} shown while it waits
    this.svg = el('svg', { viewBox: '0 0 800 800', class: 'board-svg', role: 'img', 'aria-label': t('board-label') });
    root.appendChild(this.svg);
    this.view = new Renderer(this.svg);
    this.chooser = new Chooser(root);
    // The variant state in words: under the hint line when there is one
    // (below the players and clocks, which must stay in view), else under the board.
    // A page may give the line's element, so that its room is kept before
    // the board is drawn (game.html).
    this.info = opts.info || document.createElement('div');
    this.info.classList.add('vstate');
    if (opts.info) { /* in its place already */ } else if (opts.hint) opts.hint.after(this.info);
    else root.appendChild(this.info);
    bindPointer(this);
    // Another piece set or board colour chosen: draw the pieces again.
    window.addEventListener('chimera:prefs', () => this.redraw());
    if (opts.fit) {
      // Refit when the window or anything beside the board changes size
      // (clocks appearing, pockets filling, the variant line wrapping).
      window.addEventListener('resize', () => this.fit());
      if (window.ResizeObserver) new ResizeObserver(() => this.fit()).observe(opts.fit);
    }
    this.redraw();
  }

  /**
   * data: { fen or board, pockets, state (the server's variant state: rings,
   * tainted pawns, flip rights, hands), legal, turn, check, last: {from,to},
   * interactive, premovable (colour), variant }
   */
  set(data) {
    this.data = normalise(data);
    const sel = this.selected;
    if (sel && !(sel.pre ? this.data.premovable && pickable(this.data, sel.sq) : this.movesFor(sel).length)) this.selected = null;
    this.chooser.hide();
    this.redraw();
  }

  flip() {
    this.setOrientation(this.orientation === 'w' ? 'b' : 'w');
  }

  setOrientation(c) {
    this.orientation = c;
    this.redraw();
  }

  /** Shows (or clears) a waiting premove. */
  setPremove(p) {
    this.premove = p;
    this.redraw();
  }

  cancelPremove() {
    if (!this.premove && !(this.selected && this.selected.pre)) return;
    if (this.selected && this.selected.pre) this.selected = null;
    this.premove = null;
    if (this.opts.onPremove) this.opts.onPremove(null);
    this.redraw();
  }

  unselect() {
    this.selected = null;
    this.redraw();
  }

  squareAt(clientX, clientY) {
    return squareAt(this.orientation, this.svg.getBoundingClientRect(), clientX, clientY);
  }

  movesFor(sel) {
    return movesFor(this.data, sel);
  }

  targets(sel) {
    return dests(this.data, sel);
  }

  canPick(sq) {
    return pickable(this.data, sq);
  }

  /** The selection `sel` goes to `sq`: a premove, one move, or the chooser. */
  complete(sel, sq) {
    if (sel && sel.pre) {
      this.selected = null;
      this.drag = null;
      this.premove = { from: sel.sq, to: sq };
      if (this.opts.onPremove) this.opts.onPremove(this.premove);
      this.redraw();
      return;
    }
    const ms = this.targets(sel).get(sq);
    if (!ms || !ms.length) return;
    if (ms.length === 1) return this.play(ms[0][0]);
    this.drag = null;
    this.redraw();
    this.chooser.show(choiceOptions(ms, this.data.turn, (uci) => this.play(uci), () => this.unselect()));
  }

  play(uci) {
    this.selected = null;
    this.drag = null;
    this.redraw();
    if (this.opts.onMove) this.opts.onMove(uci);
  }

  /** Redraws what changed. (`render` is the old name.) */
  redraw() {
    const d = this.data;
    const sel = this.selected;
    this.view.draw({
      orientation: this.orientation, pieces: d.pieces, last: d.last, check: d.check, selected: sel,
      dests: this.targets(sel), premove: this.premove, state: d.state, drag: this.drag,
    });
    renderPockets(this.opts.pockets, d, this.orientation, sel, this.opts.pocketName,
      (role, letter, e) => this.pickFromPocket(role, letter, e));
    renderHint(this.opts.hint, d, sel, this.movesFor(sel), (uci) => this.play(uci), this.premove);
    renderInfo(this.info, d);
    if (this.opts.fit) this.fit();
  }

  render() {
    this.redraw();
  }

  /**
   * Sizes the board so that everything in `opts.fit` (the board, pockets,
   * players and clocks) fits in the window's height: the rest of that
   * element (down to the hint line) is measured and the board gets what is left, through the CSS
   * variable --board-h on the page's grid (the width limit stays CSS's).
   */
  fit() {
    const box = this.opts.fit;
    const grid = box.parentElement;
    const board = this.svg.getBoundingClientRect().height;
    const top = box.getBoundingClientRect().top;
    // What must be in view: everything down to the hint line, and one line of hint.
    const hint = this.opts.hint;
    const last = hint && hint.parentElement === box ? hint.previousElementSibling : box.lastElementChild;
    // The hint's reserved line, and the variant's state line under it
    // (Genie flips, rings...): both stay in view with the board.
    let reserve = hint ? parseFloat(getComputedStyle(hint).minHeight) || 0 : 0;
    // (An empty line whose room is kept counts: it is there, blank.)
    if (this.info.parentElement === box && this.info.getBoundingClientRect().height > 0) {
      reserve += this.info.getBoundingClientRect().height + (parseFloat(getComputedStyle(this.info).marginTop) || 0);
    }
    const other = last.getBoundingClientRect().bottom - top - board + reserve;
    const want = Math.floor(Math.max(240, window.innerHeight - (top + window.scrollY) - other - 12));
    if (grid.style.getPropertyValue('--board-h') !== want + 'px') {
      grid.style.setProperty('--board-h', want + 'px');
    }
    const now = Math.round(this.svg.getBoundingClientRect().height);
    if (grid.style.getPropertyValue('--board-px') !== now + 'px') grid.style.setProperty('--board-px', now + 'px');
  }
}
