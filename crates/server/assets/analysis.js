import { Board } from './board.js';
import { api, toast, header, POCKET_NAMES } from './common.js';

document.getElementById('hdr').innerHTML = header();
const $ = (id) => document.getElementById(id);
// The line being studied: a start position and moves, replayed by the server.
let line = { variant: 'chess', ring_powers: 'QNRB', fen: null, moves: [] };
let view = null; // number of moves shown (null = all)
let pos = null;
let searchId = 0;

const board = new Board($('board'), {
  onMove: (uci) => { const n = view === null ? line.moves.length : view; line.moves = line.moves.slice(0, n).concat([uci]); view = null; load(); },
  pockets: { top: $('pocket-top'), bottom: $('pocket-bottom') },
  hint: $('hint'),
});

function req(n) {
  const r = { variant: line.variant, moves: line.moves.slice(0, n) };
  if (line.fen) r.fen = line.fen;
  if (line.variant === 'magicring') r.ring_powers = line.ring_powers;
  return r;
}

async function load() {
  const n = view === null ? line.moves.length : view;
  try {
    const full = await api('/api/position', req(line.moves.length));
    pos = n === line.moves.length ? full : await api('/api/position', req(n));
    board.opts.pocketName = POCKET_NAMES[line.variant] || 'Reserve';
    const h = n > 0 ? full.history[n - 1] : null;
    board.set({ board: pos.board, pockets: pos.pockets, state: pos.state, fen: pos.fen, legal: pos.legal, turn: pos.turn, check: pos.check,
      last: h ? lastOf(h.uci) : null, interactive: true, variant: line.variant, ringPowers: line.ring_powers });
    $('fen').value = pos.fen;
    const cells = [];
    full.history.forEach((m, i) => {
      if (i % 2 === 0) cells.push(`<span class="n">${Math.floor(i / 2) + 1}.</span>`);
      cells.push(`<span class="m${i + 1 === n ? ' cur' : ''}" data-ply="${i + 1}">${m.san}</span>`);
    });
    $('moves').innerHTML = cells.join('');
    $('moves').querySelectorAll('.m').forEach((e) => e.addEventListener('click', () => { view = parseInt(e.dataset.ply, 10); load(); }));
    $('score').textContent = pos.outcome ? pos.outcome : '';
    if ($('auto').checked && !pos.outcome) analyse();
  } catch (e) { toast(e.message); }
}

function lastOf(uci) {
  if (uci[1] === '@') return { from: uci.slice(2, 4), to: uci.slice(2, 4) };
  return { from: uci.slice(0, 2), to: uci.slice(2, 4) };
}

async function analyse() {
  const n = view === null ? line.moves.length : view;
  const my = ++searchId;
  $('pv').textContent = 'Thinking…';
  try {
    const a = await api('/api/analyse', req(n));
    if (my !== searchId) return;
    let label = '';
    let frac = 0.5;
    if (a.score && a.score.cp !== undefined) { label = (a.score.cp >= 0 ? '+' : '') + (a.score.cp / 100).toFixed(2); frac = 1 / (1 + Math.exp(-a.score.cp / 250)); }
    else if (a.score && a.score.mate !== undefined) { label = '#' + a.score.mate; frac = a.score.mate > 0 ? 1 : 0; }
    else if (a.outcome) label = a.outcome;
    $('evalwhite').style.height = (frac * 100).toFixed(1) + '%';
    $('evallabel').textContent = label;
    $('score').textContent = label + (a.depth ? ` (depth ${a.depth})` : '');
    $('pv').textContent = a.pv_san && a.pv_san.length ? a.pv_san.join(' ') : '—';
  } catch (e) { if (my === searchId) $('pv').textContent = e.message; }
}

async function init() {
  const meta = await api('/api/meta');
  for (const v of meta.variants) $('variant').insertAdjacentHTML('beforeend', `<option value="${v.id}">${v.name}</option>`);
  const q = new URLSearchParams(location.search);
  if (q.get('game')) {
    const g = await api('/api/games/' + q.get('game'));
    line = { variant: g.variant, ring_powers: g.ring_powers, fen: g.start_fen, moves: g.history.map((h) => h.uci) };
    const p = parseInt(q.get('ply') || '', 10);
    view = Number.isFinite(p) && p < line.moves.length ? p : null;
  } else if (q.get('variant')) line.variant = q.get('variant');
  $('variant').value = line.variant;
  $('powers').value = line.ring_powers;
  $('powers').classList.toggle('hidden', line.variant !== 'magicring');
  load();
}

$('variant').onchange = () => { line = { variant: $('variant').value, ring_powers: $('powers').value, fen: null, moves: [] }; view = null; $('powers').classList.toggle('hidden', line.variant !== 'magicring'); load(); };
$('powers').onchange = () => { line.ring_powers = $('powers').value.toUpperCase(); line.moves = []; load(); };
$('setfen').onclick = () => { line.fen = $('fen').value.trim(); line.moves = []; view = null; load(); };
$('reset').onclick = () => { line.fen = null; line.moves = []; view = null; load(); };
$('flip').onclick = () => board.flip();
$('analyse').onclick = analyse;
$('first').onclick = () => { view = 0; load(); };
$('prev').onclick = () => { const n = view === null ? line.moves.length : view; view = Math.max(0, n - 1); load(); };
$('next').onclick = () => { const n = view === null ? line.moves.length : view; view = n + 1 >= line.moves.length ? null : n + 1; load(); };
$('last').onclick = () => { view = null; load(); };
$('undo').onclick = () => { line.moves.pop(); view = null; load(); };
$('import').onclick = async () => {
  try {
    const r = await api('/api/pgn/import', { pgn: $('pgn').value });
    line = { variant: r.variant, ring_powers: r.ring_powers || 'QNRB', fen: r.fen, moves: r.moves };
    view = null;
    $('variant').value = r.variant;
    load();
  } catch (e) { toast(e.message); }
};
$('export').onclick = async () => {
  // Build PGN text from the server's SAN of the current line.
  try {
    const full = await api('/api/position', req(line.moves.length));
    const std = await api('/api/position', { variant: line.variant, ring_powers: line.variant === 'magicring' ? line.ring_powers : undefined });
    const tags = [['Event', 'Chimera analysis'], ['Site', location.host], ['Result', '*']];
    if (line.variant !== 'chess') tags.push(['Variant', line.variant]);
    if (line.variant === 'magicring' && line.ring_powers !== 'QNRB') tags.push(['RingPowers', line.ring_powers]);
    if (full.start_fen !== std.start_fen) { tags.push(['SetUp', '1']); tags.push(['FEN', full.start_fen]); }
    const black = full.start_fen.split(' ')[1] === 'b';
    let num = parseInt(full.start_fen.split(' ')[5] || '1', 10);
    const toks = [];
    full.history.forEach((m, i) => {
      const white = (i % 2 === 0) !== black;
      if (white) toks.push(num + '.');
      else if (i === 0) toks.push(num + '...');
      toks.push(m.san);
      if (!white) num += 1;
    });
    toks.push('*');
    $('pgn').value = tags.map(([k, v]) => `[${k} "${v}"]`).join('\n') + '\n\n' + toks.join(' ') + '\n';
  } catch (e) { toast(e.message); }
};

init().catch((e) => toast(e.message));
