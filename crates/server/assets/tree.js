// The analysis board's move tree: every line played is kept. A node's first
// child is its main continuation, the others are side lines (variations).
// Written to PGN with variations in parentheses and read back from the
// server's tree of a PGN (/api/pgn/tree), with each move's [%eval] and
// [%clk] from the PGN's comments shown beside it.
import { evalText, linkStyle } from './review.js';
import { t } from './i18n.js';

export class MoveTree {
  constructor() {
    this.clear();
  }

  clear() {
    this.seq = 0;
    this.root = this.node(null, null, null);
    this.cur = this.root;
  }

  node(uci, san, parent) {
    return { id: this.seq++, uci, san, parent, children: [] };
  }

  byId(id) {
    const walk = (n) => {
      if (n.id === id) return n;
      for (const c of n.children) {
        const f = walk(c);
        if (f) return f;
      }
      return null;
    };
    return walk(this.root);
  }

  /** The nodes from the start to `n` (the root left out). */
  path(n = this.cur) {
    const out = [];
    for (let x = n; x && x.parent; x = x.parent) out.unshift(x);
    return out;
  }

  ucis(n = this.cur) {
    return this.path(n).map((x) => x.uci);
  }

  /** Plays `uci` from `parent`: an existing child is reused, else a new one is added after the others. */
  add(uci, san, parent = this.cur) {
    let child = parent.children.find((c) => c.uci === uci);
    if (!child) {
      child = this.node(uci, san, parent);
      parent.children.push(child);
    }
    return child;
  }

  /** A line of nodes as the server gives them: [{uci, san, variations: [[...], ...]}]. */
  addLine(parent, line) {
    let at = parent;
    for (const m of line) {
      const child = this.add(m.uci, m.san, at);
      if (m.eval) child.eval = m.eval;
      if (typeof m.clock === 'number') child.clock = m.clock;
      if (m.eval || typeof m.clock === 'number') linkStyle();
      for (const v of m.variations || []) this.addLine(at, v);
      at = child;
    }
    return at;
  }

  /** The main line from `n` on. */
  mainline(n = this.root) {
    const out = [];
    for (let x = n; x.children.length; x = x.children[0]) out.push(x.children[0]);
    return out;
  }

  isMainline(n) {
    for (let x = n; x.parent; x = x.parent) if (x.parent.children[0] !== x) return false;
    return true;
  }

  /** Moves the side line holding `n` one step up: it swaps places with the line it branches from. */
  promote(n = this.cur) {
    for (let x = n; x && x.parent; x = x.parent) {
      const sibs = x.parent.children;
      const i = sibs.indexOf(x);
      if (i > 0) {
        sibs.splice(i, 1);
        sibs.unshift(x);
        return true;
      }
    }
    return false;
  }

  /** Deletes `n` and all that follows it; the current node goes to its parent. */
  remove(n = this.cur) {
    if (!n.parent) return;
    const sibs = n.parent.children;
    sibs.splice(sibs.indexOf(n), 1);
    if (this.path().includes(n)) this.cur = n.parent;
  }

  prev() { if (this.cur.parent) this.cur = this.cur.parent; }
  next() { if (this.cur.children.length) this.cur = this.cur.children[0]; }
  first() { this.cur = this.root; }
  last() { while (this.cur.children.length) this.cur = this.cur.children[0]; }

  /** ↑/↓: to the previous/next side line at the nearest branch at or before the current move. */
  sibling(step) {
    for (let x = this.cur; x && x.parent; x = x.parent) {
      const sibs = x.parent.children;
      if (sibs.length > 1) {
        const i = sibs.indexOf(x) + step;
        if (i >= 0 && i < sibs.length) this.cur = sibs[i];
        return;
      }
    }
  }
}

/** Ply numbering from a FEN: the index of the first move (0 = White's first move). */
export function startPly(fen) {
  const f = (fen || '').split(' ');
  const full = parseInt(f[5] || '1', 10) || 1;
  return (full - 1) * 2 + (f[1] === 'b' ? 1 : 0);
}

const isWhite = (a) => a % 2 === 0;
const moveNo = (a) => Math.floor(a / 2) + 1;

function moveText(n, a, force) {
  if (isWhite(a)) return `${moveNo(a)}. ${n.san}`;
  return force ? `${moveNo(a)}... ${n.san}` : n.san;
}

/** PGN movetext of the tree below `n` (at absolute ply `a`), side lines in parentheses. */
export function movetext(n, a, force = true) {
  const toks = [];
  let x = n;
  while (x.children.length) {
    const [main, ...vars] = x.children;
    toks.push(moveText(main, a, force));
    force = false;
    for (const v of vars) {
      const rest = movetext(v, a + 1, false);
      toks.push('(' + moveText(v, a, true) + (rest ? ' ' + rest : '') + ')');
      force = true;
    }
    x = main;
    a += 1;
  }
  return toks.join(' ');
}

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));

/** Side lines, inline: moves as `.m.v` spans, nested lines in parentheses. */
function inline(n, a, force, cur) {
  const out = [];
  let x = n;
  while (x.children.length) {
    const [main, ...vars] = x.children;
    out.push(moveSpan(main, a, force, cur, true));
    force = false;
    for (const v of vars) {
      out.push('<span class="paren">(</span>' + moveSpan(v, a, true, cur, true) + inline(v, a + 1, false, cur) + '<span class="paren">)</span>');
      force = true;
    }
    x = main;
    a += 1;
  }
  return out.join('');
}

function moveSpan(n, a, force, cur, side) {
  const num = isWhite(a) ? `${moveNo(a)}.` : force ? `${moveNo(a)}…` : '';
  return (num ? `<span class="vn">${num}</span>` : '') +
    `<span class="m${side ? ' v' : ''}${n === cur ? ' cur' : ''}" data-node="${n.id}">${esc(n.san)}</span>`;
}

/** A move's evaluation and clock read from a PGN's comments. */
function annotation(n) {
  let clk = '';
  if (typeof n.clock === 'number') {
    const t = Math.floor(n.clock / 1000);
    const [h, m, sec] = [Math.floor(t / 3600), Math.floor(t / 60) % 60, String(t % 60).padStart(2, '0')];
    clk = h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
  }
  return (n.eval ? `<span class="ann-eval" title="${esc(t('tree-eval-title'))}">${esc(evalText(n.eval))}</span>` : '') +
    (clk ? `<span class="ann-clock" title="${esc(t('tree-clock-title'))}">${clk}</span>` : '');
}

/**
 * The move list's HTML: the main line in the three-column grid (number,
 * White, Black), each branch's side lines in a full-width row under the
 * move they replace.
 */
export function moveListHtml(tree, a0) {
  const cells = [];
  let a = a0;
  let x = tree.root;
  if (x.children.length && !isWhite(a)) cells.push(`<span class="n">${moveNo(a)}.</span><span class="filler">…</span>`);
  while (x.children.length) {
    const [main, ...vars] = x.children;
    if (isWhite(a)) cells.push(`<span class="n">${moveNo(a)}.</span>`);
    cells.push(`<span class="m${main === tree.cur ? ' cur' : ''}" data-node="${main.id}">${esc(main.san)}${annotation(main)}</span>`);
    if (vars.length) {
      if (isWhite(a)) cells.push('<span class="filler">…</span>');
      cells.push('<div class="var">' + vars.map((v) => '<span class="line">' + moveSpan(v, a, true, tree.cur, true) + inline(v, a + 1, false, tree.cur) + '</span>').join('') + '</div>');
      if (isWhite(a) && main.children.length) cells.push(`<span class="n">${moveNo(a)}.</span><span class="filler">…</span>`);
    }
    x = main;
    a += 1;
  }
  return cells.join('');
}
