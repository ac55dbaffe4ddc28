// The computer review of a finished game on the game page (docs/server.md,
// "Game review"): a button that asks for it, then the evaluation graph (as
// winning chances), the move-time graph, each side's accuracy and counts,
// and at the move on the board its judgement, the better move and line.
// A point of either graph pressed goes to that move; by keyboard, each
// graph is a slider (arrows, Home, End, Page Up/Down), and each side's
// count of inaccuracies, mistakes and blunders is a button that goes to
// the next such move. The server answers
// 200 with the review, or 202 with {state} while its job waits or runs:
// the panel asks again every 1.5 s until the review is there.
import { api } from './common.js';

const SVG = 'http://www.w3.org/2000/svg';
const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };
const WORDS = { inaccuracy: 'Inaccuracy', mistake: 'Mistake', blunder: 'Blunder' };
const POLL_MS = 1500;

// The panel's own style sheet, linked once (style-src 'self': no inline style).
export function linkStyle() {
  if (document.querySelector('link[data-review]')) return;
  const l = document.createElement('link');
  l.rel = 'stylesheet';
  l.href = '/assets/review.css';
  l.dataset.review = '1';
  document.head.appendChild(l);
}

/** lichess's winning chances (−1..+1, White's view) of an evaluation. */
export function winningChances(e) {
  if (!e) return 0;
  if ('won' in e) return e.won === 'white' ? 1 : -1;
  if ('mate' in e) return e.mate > 0 ? 1 : -1;
  const wc = 2 / (1 + Math.exp(-0.00368208 * e.cp)) - 1;
  return Math.max(-1, Math.min(1, wc));
}

/** An evaluation as people read it: +0.4, −2.1, #3, #−2, 1-0. */
export function evalText(e) {
  if (!e) return '';
  if ('won' in e) return e.won === 'white' ? '1-0' : '0-1';
  if ('mate' in e) return `#${e.mate}`;
  const p = e.cp / 100;
  return (p > 0 ? '+' : '') + p.toFixed(1);
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** A polygon between the line `pts` and the middle `mid`, on one side of
 *  it (`above`: the part above the middle), with the crossings added. */
function fillPoints(pts, mid, above) {
  const out = [[pts[0][0], mid]];
  const clamp = (y) => (above ? Math.min(y, mid) : Math.max(y, mid));
  for (let i = 0; i < pts.length; i++) {
    const [x, y] = pts[i];
    if (i > 0) {
      const [px, py] = pts[i - 1];
      if ((py - mid) * (y - mid) < 0) out.push([px + ((mid - py) / (y - py)) * (x - px), mid]);
    }
    out.push([x, clamp(y)]);
  }
  out.push([pts[pts.length - 1][0], mid]);
  return out.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
}

export class ReviewPanel {
  /** `box`: the panel's element; `goTo(ply)`: shows that ply on the board;
   *  `changed()`: the review arrived (the move list gets its marks). */
  constructor(box, { gameId, goTo, changed }) {
    this.box = box;
    this.id = gameId;
    this.goTo = goTo;
    this.changed = changed;
    this.phase = 'idle'; // idle | asking | none | waiting | done | failed
    this.review = null;
    this.game = null;
    this.ply = 0;
    this.width = 0;
    linkStyle();
    box.addEventListener('click', (ev) => {
      const t = ev.target.closest('[data-ply]');
      const count = ev.target.closest('button.count');
      if (t && this.box.contains(t) && t.closest('svg')) this.goTo(parseInt(t.dataset.ply, 10));
      else if (count) this.nextJudged(count.dataset.side, count.dataset.kind);
      else if (ev.target.closest('#review-ask')) this.ask();
    });
    box.addEventListener('keydown', (ev) => {
      const svg = ev.target.closest && ev.target.closest('svg.review-graph');
      if (!svg || ev.altKey || ev.ctrlKey || ev.metaKey || !this.review) return;
      const n = this.review.plies.length;
      const low = svg.id === 'time-graph' ? 1 : 0;
      const step = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1, PageDown: -10, PageUp: 10 }[ev.key];
      let to = null;
      if (step) to = this.ply + step;
      else if (ev.key === 'Home') to = low;
      else if (ev.key === 'End') to = n;
      if (to === null) return;
      // The page's own arrow keys (keys.js) would move a second time.
      ev.preventDefault();
      ev.stopPropagation();
      this.goTo(Math.max(low, Math.min(n, to)));
    });
    if (window.ResizeObserver) {
      new ResizeObserver(() => {
        if (this.phase === 'done' && this.box.clientWidth !== this.width) this.draw();
      }).observe(box);
    }
  }

  /** The move list's mark of a ply: ?!, ? or ?? after its SAN. */
  mark(ply) {
    const p = this.review && this.review.plies[ply - 1];
    const j = p && p.judgement;
    return j ? `<span class="judgement ${j}" title="${WORDS[j]}">${MARKS[j]}</span>` : '';
  }

  /** Called at each render of the page: the game and the ply on the board. */
  update(game, ply) {
    this.game = game;
    this.ply = ply;
    const over = game.status === 'finished';
    this.box.classList.toggle('hidden', !over);
    if (!over) return;
    if (this.phase === 'idle') this.fetch('GET');
    else if (this.phase === 'done') this.showPly();
  }

  async fetch(method) {
    this.phase = 'asking';
    try {
      const r = await api(`/api/games/${encodeURIComponent(this.id)}/review`, method === 'POST' ? {} : undefined);
      if (r && Array.isArray(r.plies)) {
        this.review = r;
        this.phase = 'done';
        this.draw();
        this.changed();
      } else {
        this.phase = 'waiting';
        this.say(r && r.state === 'running' ? 'The engine is reviewing the game…' : 'The review is queued: it starts when an engine is free…');
        setTimeout(() => this.fetch('GET'), POLL_MS);
      }
    } catch (e) {
      if (e.status === 404 && method === 'GET') {
        this.phase = 'none';
        this.box.innerHTML = '<h3 class="flush">Computer review</h3>' +
          '<p class="review-what">The engine searches every position of the game: an evaluation graph, each side\'s accuracy and mistakes, and the better move where one was missed.</p>' +
          '<button id="review-ask" class="primary">Computer review</button>';
      } else {
        this.phase = 'failed';
        this.say(`No review: ${e.message}`, true);
        this.box.insertAdjacentHTML('beforeend', '<button id="review-ask">Try again</button>');
      }
    }
  }

  ask() {
    if (this.phase === 'asking' || this.phase === 'waiting') return;
    this.say('Asking for a review…');
    this.fetch('POST');
  }

  say(text, bad) {
    this.box.innerHTML = `<h3 class="flush">Computer review</h3><p class="review-wait${bad ? ' bad' : ''}" role="status">${esc(text)}</p>`;
  }

  /** The whole panel, its graphs as wide as the panel. */
  draw() {
    const r = this.review;
    const count = (name, kind, key, k) => `<td data-count="${key}"><button type="button" class="count" data-side="${name}" data-kind="${kind}"` +
      `${k ? '' : ' disabled'} aria-label="${name === 'white' ? 'White' : 'Black'}: ${k} ${k === 1 ? WORDS[kind].toLowerCase() : key}${k ? ', go to the next' : ''}">${k}</button></td>`;
    const side = (name, s) => `<tr data-side="${name}"><th>${name === 'white' ? 'White' : 'Black'}</th>` +
      `<td data-count="accuracy">${s.accuracy == null ? '–' : s.accuracy + '%'}</td>` +
      count(name, 'inaccuracy', 'inaccuracies', s.inaccuracies) + count(name, 'mistake', 'mistakes', s.mistakes) +
      count(name, 'blunder', 'blunders', s.blunders) + '</tr>';
    this.box.innerHTML = '<h3 class="flush">Computer review</h3>' +
      '<div class="review-graph-box"><svg id="eval-graph" class="review-graph" tabindex="0" role="slider" aria-label="Evaluation graph: a point goes to its move"></svg></div>' +
      '<div class="review-graph-box"><svg id="time-graph" class="review-graph time" tabindex="0" role="slider" aria-label="Time per move: a bar goes to its move"></svg></div>' +
      '<table class="review-sides"><thead><tr><th></th><th>Accuracy</th><th title="Inaccuracies">?!</th><th title="Mistakes">?</th><th title="Blunders">??</th></tr></thead>' +
      `<tbody>${side('white', r.white)}${side('black', r.black)}</tbody></table>` +
      '<div class="review-move" id="review-move"></div>';
    this.width = this.box.clientWidth;
    const w = Math.max(160, Math.floor(this.box.querySelector('.review-graph-box').clientWidth || this.width - 24));
    this.drawEval(this.box.querySelector('#eval-graph'), w);
    this.drawTime(this.box.querySelector('#time-graph'), w);
    this.showPly();
  }

  /** x of position `k` (0: the start, k: after ply k). */
  xOf(k, w) {
    const n = this.review.plies.length;
    return n ? (k / n) * (w - 2) + 1 : w / 2;
  }

  /** A transparent column over each ply, the graph's pressable points. */
  hits(svg, w, h, from) {
    const n = this.review.plies.length;
    const g = el('g', { class: 'hits' }, svg);
    for (let k = from; k <= n; k++) {
      const a = Math.max(0, (this.xOf(k - 0.5, w)));
      const b = Math.min(w, this.xOf(k + 0.5, w));
      el('rect', { x: a, y: 0, width: Math.max(1, b - a), height: h, 'data-ply': k, class: 'hit' }, g);
    }
  }

  drawEval(svg, w) {
    const h = 90;
    const mid = h / 2;
    svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
    svg.setAttribute('width', w);
    svg.setAttribute('height', h);
    const r = this.review;
    const evals = [r.start, ...r.plies.map((p) => p.eval)];
    const pts = evals.map((e, k) => [this.xOf(k, w), mid - winningChances(e) * (mid - 5)]);
    el('rect', { x: 0, y: 0, width: w, height: h, class: 'bg' }, svg);
    if (pts.length > 1) {
      el('polygon', { points: fillPoints(pts, mid, true), class: 'white-area' }, svg);
      el('polygon', { points: fillPoints(pts, mid, false), class: 'black-area' }, svg);
    }
    el('line', { x1: 0, y1: mid, x2: w, y2: mid, class: 'mid' }, svg);
    el('polyline', { points: pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' '), class: 'line' }, svg);
    r.plies.forEach((p, i) => {
      if (p.judgement) el('circle', { cx: pts[i + 1][0], cy: pts[i + 1][1], r: 3.5, class: `dot ${p.judgement}` }, svg);
    });
    el('line', { x1: 0, y1: 0, x2: 0, y2: h, class: 'cursor' }, svg);
    this.hits(svg, w, h, 0);
  }

  /** Time spent on each move: White's above the middle, Black's below. */
  drawTime(svg, w) {
    const h = 60;
    const mid = h / 2;
    const hist = (this.game && this.game.history) || [];
    const spent = this.review.plies.map((_, i) => (hist[i] && typeof hist[i].spent === 'number' ? hist[i].spent : null));
    const box = svg.parentElement;
    if (!spent.some((s) => s !== null)) {
      box.innerHTML = '<p class="review-none">No clock in this game: no move times.</p>';
      return;
    }
    svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
    svg.setAttribute('width', w);
    svg.setAttribute('height', h);
    el('rect', { x: 0, y: 0, width: w, height: h, class: 'bg' }, svg);
    const top = Math.max(1000, ...spent.map((s) => s || 0));
    const n = this.review.plies.length;
    const bar = Math.max(1, Math.min(12, ((w - 2) / n) * 0.7));
    spent.forEach((s, i) => {
      if (s === null) return;
      const white = (this.firstWhite() ? i % 2 === 0 : i % 2 === 1);
      const len = Math.max(1, (Math.sqrt(s) / Math.sqrt(top)) * (mid - 2));
      const x = this.xOf(i + 1, w) - bar / 2;
      el('rect', { x, y: white ? mid - len : mid, width: bar, height: len, class: white ? 'bar w' : 'bar b' }, svg);
    });
    el('line', { x1: 0, y1: mid, x2: w, y2: mid, class: 'mid' }, svg);
    el('line', { x1: 0, y1: 0, x2: 0, y2: h, class: 'cursor' }, svg);
    this.hits(svg, w, h, 1);
  }

  /** The board to the next move (after the one shown, round to the first)
   *  that the review judged `kind`, played by `side`. */
  nextJudged(side, kind) {
    const plies = this.review.plies;
    const white = (p) => (this.firstWhite() ? p.ply % 2 === 1 : p.ply % 2 === 0);
    const hits = plies.filter((p) => p.judgement === kind && white(p) === (side === 'white')).map((p) => p.ply);
    if (!hits.length) return;
    this.goTo(hits.find((k) => k > this.ply) || hits[0]);
  }

  firstWhite() {
    const f = this.game && this.game.start_fen;
    return !f || f.split(' ')[1] !== 'b';
  }

  /** The cursor on both graphs and what the review says of the shown move. */
  showPly() {
    const r = this.review;
    if (!r) return;
    for (const svg of this.box.querySelectorAll('svg.review-graph')) {
      const c = svg.querySelector('.cursor');
      if (!c) continue;
      const w = parseFloat(svg.getAttribute('width'));
      const x = this.xOf(this.ply, w).toFixed(1);
      c.setAttribute('x1', x);
      c.setAttribute('x2', x);
      // The slider's value, as a screen reader says it.
      const low = svg.id === 'time-graph' ? 1 : 0;
      const k = Math.max(low, this.ply);
      const p = k > 0 ? r.plies[k - 1] : null;
      svg.setAttribute('aria-valuemin', String(low));
      svg.setAttribute('aria-valuemax', String(r.plies.length));
      svg.setAttribute('aria-valuenow', String(k));
      svg.setAttribute('aria-valuetext', p ? `Move ${Math.ceil(k / 2)}${(this.firstWhite() ? k % 2 === 1 : k % 2 === 0) ? '' : ' …'} ${p.san}, ${evalText(p.eval)}${p.judgement ? ', ' + WORDS[p.judgement] : ''}` : `Start, ${evalText(r.start)}`);
    }
    const box = this.box.querySelector('#review-move');
    if (!box) return;
    const p = this.ply > 0 ? r.plies[this.ply - 1] : null;
    box.dataset.ply = String(this.ply);
    if (!p) {
      box.innerHTML = `<span class="eval">${esc(evalText(r.start))}</span> at the start. Press a point of a graph to go to its move.`;
      return;
    }
    const num = `${Math.ceil(p.ply / 2)}${(this.firstWhite() ? p.ply % 2 === 1 : p.ply % 2 === 0) ? '.' : '…'}`;
    let html = `<span class="eval">${esc(evalText(p.eval))}</span> ${num} ${esc(p.san)}${this.mark(p.ply)}`;
    if (p.judgement) {
      html += ` <span class="verdict ${p.judgement}">${WORDS[p.judgement]}.</span>`;
      if (p.best_san) html += ` <span class="best">Better was <b>${esc(p.best_san)}</b></span>`;
      if (p.line && p.line.length) html += `<div class="line">${p.line.map(esc).join(' ')}</div>`;
      if (p.note) html += `<div class="note">${esc(p.note)}</div>`;
    } else if (p.best_san && p.best !== p.uci) {
      html += ` <span class="best">The engine chose ${esc(p.best_san)}</span>`;
    }
    html += ` <span class="acc">accuracy ${p.accuracy}%</span>`;
    box.innerHTML = html;
  }
}
