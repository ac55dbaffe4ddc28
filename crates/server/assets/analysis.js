import { Board } from './board.js';
import { api, toast, header, optionFields, readOptions, t, esc, variantName } from './common.js';
import { MoveTree, movetext, moveListHtml, startPly } from './tree.js';
import { bindKeys } from './keys.js';
import { Explorer } from './explorer.js';

document.getElementById('hdr').innerHTML = header();
const $ = (id) => document.getElementById(id);
// What is studied: a start position and a tree of moves from it, replayed by the server.
let line = { variant: null, options: {}, fen: null };
let meta = null;
const tree = new MoveTree();
// The explorer's move buttons play their move.
const explorer = new Explorer($('explorer'), (uci) => {
  const m = pos && Object.values(pos.legal).flat().find((x) => x[0] === uci);
  if (!m) return;
  tree.cur = tree.add(m[0], m[1]);
  load();
});
let startFen = null;
let pos = null;
let searchId = 0;
let loadId = 0;

const board = new Board($('board'), {
  onMove: (uci) => {
    const m = Object.values(board.data.legal).flat().find((x) => x[0] === uci);
    tree.cur = tree.add(uci, m ? m[1] : uci);
    load();
  },
  pockets: { top: $('pocket-top'), bottom: $('pocket-bottom') },
  hint: $('hint'),
  fit: $('board').closest('section'),
});

function req(moves) {
  const r = { variant: line.variant, moves };
  if (line.fen) r.fen = line.fen;
  if (Object.keys(line.options).length) r.options = line.options;
  return r;
}

let firstSearch = true;
const whenIdle = (f) => ('requestIdleCallback' in window ? requestIdleCallback(f, { timeout: 1500 }) : setTimeout(f, 200));

async function load() {
  const my = ++loadId;
  const node = tree.cur;
  renderMoves();
  try {
    const p = await api('/api/position', req(tree.ucis(node)));
    if (my !== loadId) return;
    pos = p;
    startFen = p.start_fen;
    board.set({ board: pos.board, pockets: pos.pockets, state: pos.state, state_lines: pos.state_lines, pocket_why: pos.pocket_why,
      pocket_name: pos.pocket_name, pocket_note: pos.pocket_note, fen: pos.fen, legal: pos.legal, turn: pos.turn, check: pos.check,
      last: node.uci ? lastOf(node.uci) : null, interactive: true, variant: line.variant });
    $('fen').value = pos.fen;
    renderMoves();
    $('score').textContent = pos.outcome ? pos.outcome : '';
    $('depth').textContent = '';
    $('nopos').classList.add('hidden');
    explorer.show(req(tree.ucis(node)));
    if ($('auto').checked && !pos.outcome) {
      // The page's first search waits until the page has loaded and the
      // browser is idle (at most 1.5 s): the engine's first depths come
      // fast, and each is drawn.
      if (firstSearch) { firstSearch = false; whenIdle(() => { if (my === loadId && !running) analyse(); }); } else analyse();
    } else stopAnalysis();
  } catch (e) {
    if (my !== loadId) return;
    toast(e.message);
    // No position to study (a bad FEN, say): an empty board that takes no
    // move, not the last position still playable under the error.
    pos = null;
    searchId++;
    board.set({ fen: '8/8/8/8/8/8/8/8', legal: {}, interactive: false, variant: line.variant });
    $('nopos').textContent = t('analysis-no-position', { error: e.message });
    $('nopos').classList.remove('hidden');
    $('score').textContent = '';
    $('depth').textContent = '';
    $('pv').textContent = '';
    stopAnalysis();
    explorer.show(null);
  }
}

// The list is rebuilt only when its HTML changes: load() renders it before
// and after the server's answer, and a rebuild under a finger or the mouse
// (the same list, new elements) would swallow that tap or click.
let movesHtml = null;
$('moves').addEventListener('click', (ev) => {
  const e = ev.target.closest('.m[data-node]');
  if (!e) return;
  tree.cur = tree.byId(parseInt(e.dataset.node, 10)) || tree.cur;
  load();
});

function renderMoves() {
  const html = moveListHtml(tree, startPly(startFen || line.fen));
  if (html !== movesHtml) {
    $('moves').innerHTML = html;
    movesHtml = html;
  }
  // Keep the current move in view inside the list (not by scrolling the page).
  const box = $('moves');
  const cur = box.querySelector('.cur');
  if (cur) {
    const b = box.getBoundingClientRect();
    const r = cur.getBoundingClientRect();
    if (r.top < b.top || r.bottom > b.bottom) box.scrollTop += r.top - b.top - b.height / 2;
  }
  $('promote').disabled = tree.isMainline(tree.cur);
  $('delete').disabled = !tree.cur.parent;
}

function lastOf(uci) {
  if (uci[1] === '@') return { from: uci.slice(2, 4), to: uci.slice(2, 4) };
  return { from: uci.slice(0, 2), to: uci.slice(2, 4) };
}

// The engine's lines deepen while the page watches (NDJSON from
// /api/analyse/stream, a line at each depth); a new position, the Stop
// button or leaving the page ends the search (the request is aborted).
let running = null;
function stopAnalysis() {
  if (running) running.abort();
  running = null;
  $('analyse').textContent = t('game-analyse');
}

async function analyse() {
  const my = ++searchId;
  stopAnalysis();
  const ctl = new AbortController();
  running = ctl;
  $('analyse').textContent = t('analysis-stop');
  const n = parseInt($('lines').value, 10) || 1;
  $('pv').style.setProperty('--lines', Math.max(3, n));
  $('pv').textContent = t('analysis-thinking');
  try {
    const r = await fetch('/api/analyse/stream?lines=' + n, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(req(tree.ucis())), signal: ctl.signal,
    });
    if (!r.ok) { let m = r.statusText; try { m = (await r.json()).error || m; } catch (_) { /* not JSON */ } throw new Error(m); }
    const reader = r.body.getReader();
    const dec = new TextDecoder();
    let buf = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (my !== searchId) { ctl.abort(); break; }
      buf += dec.decode(value, { stream: true });
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const l = buf.slice(0, i).trim();
        buf = buf.slice(i + 1);
        if (l && my === searchId) showSoon(my, JSON.parse(l));
      }
    }
  } catch (e) {
    if (my === searchId && e.name !== 'AbortError') $('pv').textContent = e.message;
  } finally {
    if (running === ctl) { running = null; $('analyse').textContent = t('game-analyse'); }
  }
}

function scoreLabel(s) {
  if (s && s.cp !== undefined) return (s.cp >= 0 ? '+' : '') + (s.cp / 100).toFixed(2);
  if (s && s.mate !== undefined) return '#' + s.mate;
  return '';
}

// The lines are drawn at most every DRAW_EVERY ms, on a frame: the first
// depths come faster than anyone reads them, and each drawing costs a
// phone's main thread (lichess's engine lines are throttled the same way).
// The latest line is always drawn.
const DRAW_EVERY = 200;
let shown = null;
let drawn = -Infinity;
function showSoon(my, a) {
  const waiting = shown !== null;
  shown = [my, a];
  if (waiting) return;
  setTimeout(() => requestAnimationFrame(() => {
    const [id, latest] = shown;
    shown = null;
    drawn = performance.now();
    if (id === searchId) showLines(latest);
  }), Math.max(0, drawn + DRAW_EVERY - performance.now()));
}

function showLines(a) {
  if (a.error) { $('pv').textContent = a.error; return; }
  const best = a.lines && a.lines[0];
  let label = a.outcome || '';
  let frac = 0.5;
  if (best) {
    label = scoreLabel(best.score);
    if (best.score.cp !== undefined) frac = 1 / (1 + Math.exp(-best.score.cp / 250));
    else if (best.score.mate !== undefined) frac = best.score.mate > 0 ? 1 : 0;
  }
  $('evalwhite').style.setProperty('--eval', frac.toFixed(3));
  $('evallabel').textContent = label;
  $('score').textContent = label;
  $('depth').textContent = a.depth ? t('analysis-depth', { n: a.depth }) : '';
  const pv = $('pv');
  pv.textContent = '';
  if (!a.lines || !a.lines.length) { pv.textContent = '—'; return; }
  for (const l of a.lines) {
    const row = document.createElement('button');
    row.type = 'button';
    row.className = 'pvline';
    row.dataset.uci = l.pv[0] || '';
    const b = document.createElement('b');
    b.textContent = scoreLabel(l.score);
    row.append(b, ' ' + l.pv_san.join(' '));
    row.title = t('play-move', { move: l.pv_san[0] || '' });
    pv.append(row);
  }
}

// A line's first move, played on the board.
$('pv').addEventListener('click', (ev) => {
  const row = ev.target.closest('.pvline');
  if (!row || !row.dataset.uci || !pos) return;
  const m = Object.values(pos.legal).flat().find((x) => x[0] === row.dataset.uci);
  if (!m) return;
  tree.cur = tree.add(m[0], m[1]);
  load();
});

function go(f) {
  return () => { f(); load(); };
}

async function init() {
  meta = await api('/api/meta');
  line.variant = meta.variants[0].id;
  for (const v of meta.variants) $('variant').insertAdjacentHTML('beforeend', `<option value="${v.id}">${esc(variantName(v.name))}</option>`);
  const q = new URLSearchParams(location.search);
  if (q.get('game')) {
    const g = await api('/api/games/' + q.get('game'));
    line = { variant: g.variant, options: g.options || {}, fen: g.start_fen };
    tree.clear();
    const end = tree.addLine(tree.root, g.history.map((h) => ({ uci: h.uci, san: h.san })));
    const p = parseInt(q.get('ply') || '', 10);
    tree.cur = Number.isFinite(p) && p >= 0 && p < g.history.length ? tree.path(end)[p - 1] || tree.root : end;
  } else if (q.get('variant')) line.variant = q.get('variant');
  showOptions();
  load();
}

// The variant's rule options, as fields built from its schema.
function showOptions() {
  $('variant').value = line.variant;
  $('options').innerHTML = optionFields(meta.variants.find((v) => v.id === line.variant), line.options);
}
$('options').addEventListener('change', () => restart({ ...line, options: readOptions($('options')) }));

function restart(l) {
  line = l;
  tree.clear();
  startFen = null;
  load();
}

$('variant').onchange = () => { line = { variant: $('variant').value, options: {}, fen: null }; showOptions(); restart(line); };
$('setfen').onclick = () => restart({ ...line, fen: $('fen').value.trim() });
$('reset').onclick = () => restart({ ...line, fen: null });
$('flip').onclick = () => board.flip();
$('analyse').onclick = () => (running ? stopAnalysis() : analyse());
$('lines').onchange = () => { if (pos && !pos.outcome) analyse(); };
$('first').onclick = go(() => tree.first());
$('prev').onclick = go(() => tree.prev());
$('next').onclick = go(() => tree.next());
$('last').onclick = go(() => tree.last());
$('promote').onclick = go(() => tree.promote());
$('delete').onclick = go(() => tree.remove());
bindKeys({
  prev: go(() => tree.prev()), next: go(() => tree.next()), first: go(() => tree.first()), last: go(() => tree.last()),
  up: go(() => tree.sibling(-1)), down: go(() => tree.sibling(1)), flip: () => board.flip(), escape: () => board.unselect(),
});
$('import').onclick = async () => {
  try {
    const r = await api('/api/pgn/tree', { pgn: $('pgn').value });
    line = { variant: r.variant, options: r.options || {}, fen: r.fen };
    tree.clear();
    startFen = null;
    tree.cur = tree.addLine(tree.root, r.tree);
    showOptions();
    load();
  } catch (e) { toast(e.message); }
};
$('export').onclick = async () => {
  try {
    // The start's own tags (variant, rule options, FEN) as the rules crate writes them.
    const p = pos || await api('/api/position', req([]));
    const tags = [['Event', 'Chimera analysis'], ['Site', location.host], ['Result', '*'], ...p.start_tags];
    const text = movetext(tree.root, startPly(p.start_fen));
    $('pgn').value = tags.map(([k, v]) => `[${k} "${v}"]`).join('\n') + '\n\n' + (text ? text + ' ' : '') + '*\n';
  } catch (e) { toast(e.message); }
};

init().catch((e) => toast(e.message));
