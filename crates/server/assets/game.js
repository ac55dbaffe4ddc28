import { Board } from './board.js';
import { Premove } from './premove.js';
import { bindKeys } from './keys.js';
import { api, toast, tokenFor, saveToken, header, fmtClock, POCKET_NAMES } from './common.js';

document.getElementById('hdr').innerHTML = header();
const $ = (id) => document.getElementById(id);
const id = location.pathname.split('/').pop();
let token = tokenFor(id);
// The invite's secret travels in the link's fragment (never sent in a request line).
const invite = new URLSearchParams(location.hash.slice(1)).get('invite');
const myInvite = localStorage.getItem('chimera.invite.' + id);
let you = [];
let state = null;
let viewPly = null; // null = live
let ws = null;
let retry = 500;
let clockBase = null;

const board = new Board($('board'), {
  onMove: (uci) => send({ t: 'move', uci, ply: state.ply }),
  pockets: { top: $('pocket-top'), bottom: $('pocket-bottom') },
  hint: $('hint'),
  onPremove: (p) => premove.set(p),
  fit: $('board').closest('section'),
});
const premove = new Premove(board);

function send(msg) {
  if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg));
  else toast('Not connected: reconnecting…');
}

function connect() {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  ws = new WebSocket(`${proto}://${location.host}/ws/${id}${token ? '?token=' + encodeURIComponent(token) : ''}`);
  ws.onopen = () => { retry = 500; };
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.t === 'hello') { you = m.you; if (state) render(); }
    else if (m.t === 'state') {
      // A state carries the history from ply history_from on: keep ours before it.
      const first = !state;
      if (!first && m.history_from > 0) m.history = state.history.slice(0, m.history_from).concat(m.history);
      state = m;
      if (first) orient();
      clockBase = performance.now();
      render();
    }
    else if (m.t === 'error') { toast(m.message); if (state) render(); }
  };
  ws.onclose = () => { setTimeout(connect, retry); retry = Math.min(retry * 2, 8000); };
}

function orient() {
  if (you.length === 1 && you[0] === 'b') board.setOrientation('b');
}

const WORDS = { w: 'White', b: 'Black' };

function playerName(c) {
  if (state.engine_color === c) return `Computer (level ${state.engine_level})`;
  if (state.mode === 'hotseat') return WORDS[c];
  const me = you.includes(c) ? ' (you)' : '';
  return WORDS[c] + me + (state.mode === 'friend' && !state.seats[c] ? ' — waiting for a player' : '');
}

function render() {
  const s = state;
  document.title = `Chimera — ${s.variant_name}`;
  $('title').textContent = `${s.variant_name}${s.variant === 'magicring' ? ' (' + s.ring_powers + ')' : ''}`;
  const live = viewPly === null || viewPly === s.ply;
  const ply = live ? s.ply : viewPly;
  const canMove = live && s.status === 'active' && you.includes(s.turn) && s.engine_color !== s.turn;
  board.opts.pocketName = POCKET_NAMES[s.variant] || 'Reserve';
  if (live) {
    const h = s.history[s.ply - 1];
    // While the opponent (or the computer) thinks, a player may queue a premove.
    const waiting = s.status === 'active' && !canMove ? you.find((c) => c !== s.turn) || null : null;
    board.set({ board: s.board, pockets: s.pockets, state: s.state, fen: s.fen, legal: canMove ? s.legal : {}, turn: s.turn, check: s.check,
      last: h ? { from: h.from || h.to, to: h.to } : null, interactive: canMove, premovable: waiting, variant: s.variant, ringPowers: s.ring_powers });
    const pre = canMove ? premove.take(s.legal) : null;
    if (pre) send({ t: 'move', uci: pre, ply: s.ply });
    if (s.status !== 'active') premove.cancel();
  } else {
    const fen = ply === 0 ? s.start_fen : s.history[ply - 1].fen;
    const h = s.history[ply - 1];
    const pockets = ply === 0 ? s.start_pockets : h.pockets;
    const vstate = ply === 0 ? s.start_state : h.state;
    board.set({ fen, pockets, state: vstate, legal: {}, turn: fen.split(' ')[1], check: h ? h.check : null, last: h ? { from: h.from || h.to, to: h.to } : null, interactive: false, variant: s.variant, ringPowers: s.ring_powers });
  }
  // names & clocks
  const top = board.orientation === 'w' ? 'b' : 'w';
  const bottom = top === 'w' ? 'b' : 'w';
  $('top-name').textContent = playerName(top);
  $('bottom-name').textContent = playerName(bottom);
  renderClocks();
  // moves
  const cells = [];
  s.history.forEach((h, i) => {
    if (i % 2 === 0) cells.push(`<span class="n">${Math.floor(i / 2) + 1}.</span>`);
    cells.push(`<span class="m${i + 1 === ply ? ' cur' : ''}" data-ply="${i + 1}">${h.san}</span>`);
  });
  $('moves').innerHTML = cells.join('');
  $('moves').querySelectorAll('.m').forEach((e) => e.addEventListener('click', () => { viewPly = parseInt(e.dataset.ply, 10); render(); }));
  const cur = $('moves').querySelector('.cur');
  if (cur && live) $('moves').scrollTop = $('moves').scrollHeight;
  // status
  let st;
  if (s.status === 'finished') st = 'Game over.';
  else if (s.thinking) st = 'The computer is thinking…';
  else if (canMove) st = `Your move (${WORDS[s.turn]}).`;
  else if (you.length) st = `Waiting for ${WORDS[s.turn]}.`;
  else st = `You are watching. ${WORDS[s.turn]} to move.`;
  if (!live) st = `Reviewing move ${ply} of ${s.ply}. ` + st;
  $('status').textContent = st;
  const banner = $('banner');
  if (s.status === 'finished') {
    const who = s.result === '1-0' ? 'White wins' : s.result === '0-1' ? 'Black wins' : 'Draw';
    banner.textContent = `${s.result} — ${who} by ${s.reason}`;
    banner.classList.remove('hidden');
  } else banner.classList.add('hidden');
  const freeSeat = s.mode === 'friend' && (!s.seats.w || !s.seats.b);
  $('join-box').classList.toggle('hidden', !(freeSeat && !you.length && s.status === 'active' && invite));
  $('invite-box').classList.toggle('hidden', !(freeSeat && you.length && myInvite));
  $('invite').textContent = location.origin + '/game/' + id + '#invite=' + myInvite;
  const offer = s.draw_offer;
  $('draw-box').classList.toggle('hidden', !(offer && you.length && !you.includes(offer)));
  $('draw-text').textContent = offer ? `${WORDS[offer]} offers a draw.` : '';
  const active = s.status === 'active' && you.length > 0;
  $('actions').classList.toggle('hidden', !active);
  $('takeback').classList.toggle('hidden', s.mode === 'friend');
  $('takeback').disabled = s.ply === 0 || s.thinking;
  $('draw').disabled = !!offer;
  $('analyse').href = `/analysis?game=${id}&ply=${ply}`;
  $('pgn').href = `/api/games/${id}/pgn`;
  $('rules').href = `/rules/${s.variant}`;
}

function renderClocks() {
  const s = state;
  if (!s || !s.clock) return;
  const top = board.orientation === 'w' ? 'b' : 'w';
  const elapsed = clockBase ? performance.now() - clockBase : 0;
  for (const [slot, c] of [['top-clock', top], ['bottom-clock', top === 'w' ? 'b' : 'w']]) {
    const running = s.clock.running === c && s.status === 'active';
    const ms = (c === 'w' ? s.clock.white : s.clock.black) - (running ? elapsed : 0);
    const e = $(slot);
    e.classList.remove('hidden');
    e.textContent = fmtClock(ms);
    e.classList.toggle('running', running);
    e.classList.toggle('low', ms < 10000);
    if (running && ms <= 0 && !s._flagSent) { s._flagSent = true; send({ t: 'flag' }); }
  }
}
setInterval(renderClocks, 100);

$('flip').onclick = () => { board.flip(); render(); };
$('first').onclick = () => { viewPly = 0; render(); };
$('prev').onclick = () => { const p = viewPly === null ? state.ply : viewPly; viewPly = Math.max(0, p - 1); render(); };
$('next').onclick = () => { const p = viewPly === null ? state.ply : viewPly; viewPly = p + 1 >= state.ply ? null : p + 1; render(); };
$('last').onclick = () => { viewPly = null; render(); };
bindKeys({
  prev: () => $('prev').click(), next: () => $('next').click(), first: () => $('first').click(),
  last: () => $('last').click(), flip: () => $('flip').click(), escape: () => { board.cancelPremove(); board.unselect(); },
});
$('resign').onclick = () => {
  const b = $('resign');
  if (b.dataset.armed) { delete b.dataset.armed; b.textContent = 'Resign'; send({ t: 'resign' }); return; }
  b.dataset.armed = '1';
  b.textContent = 'Really resign?';
  setTimeout(() => { delete b.dataset.armed; b.textContent = 'Resign'; }, 4000);
};
$('draw').onclick = () => send({ t: 'draw_offer' });
$('draw-accept').onclick = () => send({ t: 'draw_accept' });
$('draw-decline').onclick = () => send({ t: 'draw_decline' });
$('takeback').onclick = () => send({ t: 'takeback' });
$('join').onclick = async () => {
  try {
    const r = await api(`/api/games/${id}/join`, { invite });
    saveToken(id, r.token, r.colors);
    token = r.token;
    if (ws) { ws.onclose = null; ws.close(); }
    if (r.colors[0] === 'black') board.setOrientation('b');
    connect();
  } catch (e) { toast(e.message); }
};

connect();
