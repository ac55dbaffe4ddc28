// The SVG view: layers drawn from the board state, each redrawn only when
// what it shows has changed. Squares and coordinates change with the
// orientation only; pieces are kept by square and touched one by one; the
// highlight, mark and destination layers are redrawn when their key differs.
import { pieceSvg, pieceSet } from '../pieces.js';
import { FILES, xy } from './state.js';
import { SQUARE_MARKS, DEST_MARKS } from './variants.js';

const NS = 'http://www.w3.org/2000/svg';

export function el(name, attrs = {}) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

export class Renderer {
  constructor(svg) {
    this.svg = svg;
    this.layers = {};
    for (const name of ['squares', 'highlights', 'pieces', 'marks', 'dests', 'drag']) {
      this.layers[name] = el('g', { class: 'layer-' + name });
      svg.appendChild(this.layers[name]);
    }
    this.keys = {};
    this.pieceEls = new Map(); // square -> <g>
    this.orientation = null;
    // Counts of elements created, for the curious (and the tests).
    this.created = 0;
  }

  make(name, attrs) {
    this.created += 1;
    return el(name, attrs);
  }

  /** Redraws a layer from `draw()` when `key` differs from the last one. */
  layer(name, key, draw) {
    if (this.keys[name] === key) return;
    this.keys[name] = key;
    const g = this.layers[name];
    while (g.firstChild) g.removeChild(g.firstChild);
    draw(g);
  }

  /**
   * view: { orientation, pieces, last, check, selected, dests (Map),
   * premove {from, to}, state, drag {from, piece, x, y, moving} }
   */
  draw(v) {
    const o = v.orientation;
    const turned = o !== this.orientation;
    this.orientation = o;
    this.layer('squares', o, (g) => this.drawSquares(g, o));
    const hl = [];
    if (v.last) hl.push(['hl-last', v.last.from], ['hl-last', v.last.to]);
    if (v.premove) hl.push(['hl-premove', v.premove.from], ['hl-premove', v.premove.to]);
    if (v.selected && v.selected.sq) hl.push([v.selected.pre ? 'hl-preselect' : 'hl-selected', v.selected.sq]);
    if (v.selected && v.selected.drop) for (const sq of v.dests.keys()) hl.push(['hl-zone', sq]);
    if (v.check) hl.push(['hl-check', v.check]);
    const uniq = hl.filter(([c, sq], i) => sq && hl.findIndex(([c2, s2]) => c2 === c && s2 === sq) === i);
    this.layer('highlights', o + JSON.stringify(uniq), (g) => {
      for (const [cls, sq] of uniq) {
        const [x, y] = xy(o, sq);
        g.appendChild(cls === 'hl-check'
          ? this.make('circle', { cx: x + 50, cy: y + 50, r: 50, class: cls })
          : this.make('rect', { x, y, width: 100, height: 100, class: cls, 'data-square': sq }));
      }
    });
    this.drawPieces(v, turned);
    const marks = [];
    for (const m of SQUARE_MARKS) for (const item of m.items(v.state)) marks.push([m, item]);
    this.layer('marks', o + JSON.stringify(marks.map(([m, item]) => [m.name, item])), (g) => {
      for (const [m, item] of marks) {
        const sq = m.square(item);
        const [x, y] = xy(o, sq);
        const d = m.draw(item);
        const mark = this.make('g', { transform: `translate(${x} ${y})`, class: d.cls, 'data-square': sq, ...d.attrs });
        mark.innerHTML = d.html;
        const title = el('title');
        title.textContent = d.title;
        mark.appendChild(title);
        g.appendChild(mark);
      }
    });
    const pre = !!(v.selected && v.selected.pre);
    const dots = [...v.dests.entries()].map(([to, ms]) => {
      const occupied = v.pieces[to] !== undefined;
      const mark = DEST_MARKS.find((k) => k.when(ms, occupied));
      return [to, mark.cls, mark.r];
    });
    // Premoves go anywhere: no dots, the squares stay as they are.
    this.layer('dests', pre ? o + 'pre' : o + JSON.stringify(dots), (g) => {
      if (pre) return;
      for (const [to, cls, r] of dots) {
        const [x, y] = xy(o, to);
        g.appendChild(this.make('circle', { cx: x + 50, cy: y + 50, r, class: cls, 'data-square': to }));
      }
    });
    this.drawDrag(v.drag);
  }

  drawSquares(g, o) {
    for (let r = 1; r <= 8; r++) {
      for (let f = 0; f < 8; f++) {
        const sq = FILES[f] + r;
        const [x, y] = xy(o, sq);
        const light = (f + r) % 2 === 0; // a1 (0 + 1) is dark
        g.appendChild(this.make('rect', { x, y, width: 100, height: 100, class: `sq ${light ? 'light' : 'dark'}`, 'data-square': sq }));
      }
    }
    for (let i = 0; i < 8; i++) {
      const fileSq = o === 'w' ? FILES[i] + '1' : FILES[7 - i] + '8';
      const [fx, fy] = xy(o, fileSq);
      const t = this.make('text', { x: fx + 92, y: fy + 95, class: `coord ${i % 2 === 0 ? 'on-dark' : 'on-light'}`, 'text-anchor': 'end' });
      t.textContent = fileSq[0];
      g.appendChild(t);
      const rankSq = o === 'w' ? 'a' + (8 - i) : 'h' + (i + 1);
      const [rx, ry] = xy(o, rankSq);
      const t2 = this.make('text', { x: rx + 5, y: ry + 20, class: `coord ${i % 2 === 0 ? 'on-light' : 'on-dark'}` });
      t2.textContent = rankSq[1];
      g.appendChild(t2);
    }
  }

  /** Pieces by square: a square whose piece is unchanged keeps its element. */
  drawPieces(v, turned) {
    const layer = this.layers.pieces;
    // Another piece set chosen (theme.js): every piece is drawn anew.
    const set = pieceSet();
    const fresh = set !== this.pieceSetDrawn;
    this.pieceSetDrawn = set;
    for (const [sq, g] of this.pieceEls) {
      if (fresh || v.pieces[sq] !== g.dataset.piece) { g.remove(); this.pieceEls.delete(sq); }
    }
    for (const [sq, p] of Object.entries(v.pieces)) {
      let g = this.pieceEls.get(sq);
      const [x, y] = xy(v.orientation, sq);
      if (!g) {
        g = this.make('g', { transform: `translate(${x} ${y})`, class: 'piece', 'data-piece': p, 'data-square': sq });
        g.innerHTML = pieceSvg(p);
        layer.appendChild(g);
        this.pieceEls.set(sq, g);
      } else if (turned) {
        g.setAttribute('transform', `translate(${x} ${y})`);
      }
      // The piece being dragged is drawn under the pointer instead.
      g.classList.toggle('lifted', !!(v.drag && v.drag.moving && v.drag.from === sq));
    }
  }

  drawDrag(drag) {
    const g = this.layers.drag;
    if (!drag || !drag.moving) {
      if (g.firstChild) g.removeChild(g.firstChild);
      this.ghostPiece = null;
      return;
    }
    if (!g.firstChild || this.ghostPiece !== drag.piece) {
      if (g.firstChild) g.removeChild(g.firstChild);
      const ghost = this.make('g', { class: 'piece ghost' });
      ghost.innerHTML = pieceSvg(drag.piece);
      g.appendChild(ghost);
      this.ghostPiece = drag.piece;
    }
    g.firstChild.setAttribute('transform', `translate(${drag.x - 50} ${drag.y - 50})`);
  }
}
