import { Board } from './board.js';
import { Premove } from './premove.js';
import { bindKeys } from './keys.js';
import { api, screenReaderMode, toast, tokenFor, saveToken, header, fmtClock, optionsNote, myName, account, profileUrl, fmtDiff, t, esc, reasonText, variantName } from './common.js';
import { play as playSound, soundFor, muteButton } from './sound.js';
import { ReviewPanel } from './review.js';

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
let stopped = false; // the game is gone (or never was): no reconnecting
let opened = false; // a socket of this page has opened once

const board = new Board($('board'), {
  onMove: (uci) => send({ t: 'move', uci, ply: state.ply }),
  pockets: { top: $('pocket-top'), bottom: $('pocket-bottom') },
  hint: $('hint'),
  info: $('vstate'),
  onPremove: (p) => premove.set(p),
  fit: $('board').closest('section'),
});
const premove = new Premove(board);
// The computer review of a finished game: a point of its graphs goes to that move.
const review = new ReviewPanel($('review'), {
  gameId: id,
  goTo: (p) => { viewPly = p >= state.ply ? null : p; render(); },
  changed: () => render(),
});

function send(msg) {
  if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg));
  else toast(t('game-not-connected'));
}

function connect() {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  ws = new WebSocket(`${proto}://${location.host}/ws/${id}${token ? '?token=' + encodeURIComponent(token) : ''}`);
  ws.onopen = () => { retry = 500; opened = true; };
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.t === 'hello') { you = m.you; if (state) render(); }
    else if (m.t === 'state') {
      // A state carries the history from ply history_from on: keep ours before it.
      const first = !state;
      const prev = state;
      if (!first && m.history_from > 0) m.history = state.history.slice(0, m.history_from).concat(m.history);
      state = m;
      if (first) orient();
      clockBase = performance.now();
      if (!first) sounds(prev, m);
      screenReader.now()?.update(first ? null : prev, m);
      // A rematch made while this page is open: its players go there (their
      // seat tokens are the same, colours swapped).
      if (!first && m.rematch && !prev.rematch && you.length) return followRematch(m.rematch);
      render();
    }
    else if (m.t === 'error') { toast(m.message); screenReader.now()?.error(m.message); if (state) render(); }
    else if (m.t === 'notice') toast(m.message, 'notice');
    else if (m.t === 'gone') gone(m.message);
  };
  ws.onclose = async (e) => {
    if (stopped) return;
    // A spectator closed after a long silence: watch again on the next
    // sign of life from the reader, not at once.
    if (e.code === 4000) {
      toast(t('game-idle'), 'notice');
      const resume = () => {
        for (const ev of ['pointerdown', 'keydown', 'visibilitychange']) window.removeEventListener(ev, resume);
        connect();
      };
      for (const ev of ['pointerdown', 'keydown', 'visibilitychange']) window.addEventListener(ev, resume);
      return;
    }
    // A socket refused before it ever opened: is there such a game at all?
    if (!opened) {
      try {
        const r = await fetch(`/api/games/${id}`);
        if (r.status === 404) return missing();
      } catch (_) { /* the server is away: try again */ }
    }
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

/** The game does not exist: say so instead of an empty board. */
function missing() {
  stopped = true;
  document.title = t('nogame-title');
  document.querySelector('main').innerHTML = `<section class="panel nogame" id="nogame"><h2>${esc(t('nogame-heading'))}</h2>` +
    `<p>${esc(t('nogame-text'))}</p>` +
    `<p><a href="/"><button class="primary">${esc(t('go-to-lobby'))}</button></a></p></section>`;
}

/** The seek was cancelled (by its creator, or because the creator left). */
function gone(message) {
  stopped = true;
  if (ws) { ws.onclose = null; ws.close(); }
  $('gone-text').textContent = message.charAt(0).toUpperCase() + message.slice(1) + '.';
  $('gone-box').classList.remove('hidden');
  for (const b of ['seek-box', 'actions', 'join-box', 'end-box']) $(b).classList.add('hidden');
  board.set({ board: '8/8/8/8/8/8/8/8', interactive: false });
}

function sounds(prev, m) {
  const ended = m.status === 'finished' && prev.status !== 'finished';
  if (m.ply > prev.ply) playSound(soundFor(m.history[m.ply - 1], ended));
  else if (ended) playSound('end');
}

function followRematch(newId) {
  const swap = { white: 'black', black: 'white' };
  let colors = [];
  try { colors = JSON.parse(localStorage.getItem('chimera.colors.' + id) || '[]'); } catch (_) { colors = []; }
  saveToken(newId, token, colors.map((c) => swap[c] || c));
  stopped = true;
  if (ws) { ws.onclose = null; ws.close(); }
  location.href = '/game/' + newId;
}

function orient() {
  if (you.length === 1 && you[0] === 'b') board.setOrientation('b');
}

const WORDS = { w: t('white'), b: t('black') };

function playerName(c) {
  if (state.engine_color === c) return t('game-computer-level', { n: state.engine_level });
  if (state.mode === 'hotseat') return WORDS[c];
  const me = you.includes(c) ? t('game-you-mark') : '';
  const name = state.names && state.names[c];
  const waiting = (state.mode === 'friend' || state.mode === 'seek') && !state.seats[c];
  return (name ? `${name} (${WORDS[c]})` : WORDS[c]) + me + (waiting ? t('game-waiting-mark') : '');
}

let movesHtml = null;
$('moves')?.addEventListener('click', (ev) => {
  const e = ev.target.closest('.m[data-ply]');
  if (!e) return;
  viewPly = parseInt(e.dataset.ply, 10);
  render();
});

function render() {
  const s = state;
  document.title = `Chimera — ${variantName(s.variant_name)}`;
  $('title').textContent = `${variantName(s.variant_name)}${optionsNote(s.options)}`;
  const live = viewPly === null || viewPly === s.ply;
  const ply = live ? s.ply : viewPly;
  // A game against a person starts when both seats are taken: an open
  // seek's creator waits for a stranger, a friend game's for the friend.
  const freeSeat = (s.mode === 'friend' || s.mode === 'seek') && (!s.seats.w || !s.seats.b);
  const openSeek = s.mode === 'seek' && s.status === 'active' && freeSeat;
  const seatWait = s.status === 'active' && freeSeat;
  // The player's own turn (whether or not an earlier move is on the board).
  const myTurn = s.status === 'active' && !seatWait && you.includes(s.turn) && s.engine_color !== s.turn;
  const canMove = live && myTurn;
  // The variant's own words for what is beside the board (from the server).
  const words = { pocket_name: s.pocket_name, pocket_note: s.pocket_note };
  if (live) {
    const h = s.history[s.ply - 1];
    // While the opponent (or the computer) thinks, a player may queue a premove.
    const waiting = s.status === 'active' && !canMove ? you.find((c) => c !== s.turn) || null : null;
    board.set({ ...words, board: s.board, pockets: s.pockets, state: s.state, state_lines: s.state_lines, pocket_why: s.pocket_why, fen: s.fen,
      legal: canMove ? s.legal : {}, turn: s.turn, check: s.check,
      last: h ? { from: h.from || h.to, to: h.to } : null, interactive: canMove, premovable: waiting, variant: s.variant });
    const pre = canMove ? premove.take(s.legal) : null;
    if (pre) send({ t: 'move', uci: pre, ply: s.ply });
    if (s.status !== 'active') premove.cancel();
  } else {
    const fen = ply === 0 ? s.start_fen : s.history[ply - 1].fen;
    const h = s.history[ply - 1];
    const pockets = ply === 0 ? s.start_pockets : h.pockets;
    const vstate = ply === 0 ? s.start_state : h.state;
    const lines = ply === 0 ? s.start_state_lines : h.state_lines;
    board.set({ ...words, fen, pockets, state: vstate, state_lines: lines, legal: {}, turn: fen.split(' ')[1], check: h ? h.check : null,
      last: h ? { from: h.from || h.to, to: h.to } : null, interactive: false, variant: s.variant });
  }
  // names & clocks
  const top = board.orientation === 'w' ? 'b' : 'w';
  const bottom = top === 'w' ? 'b' : 'w';
  $('top-name').textContent = playerName(top);
  $('bottom-name').textContent = playerName(bottom);
  renderSeat('top', top);
  renderSeat('bottom', bottom);
  renderKind();
  renderClocks();
  // moves
  const cells = [];
  s.history.forEach((h, i) => {
    if (i % 2 === 0) cells.push(`<span class="n">${Math.floor(i / 2) + 1}.</span>`);
    cells.push(`<span class="m${i + 1 === ply ? ' cur' : ''}${h.note ? ' noted' : ''}" data-ply="${i + 1}">${h.san}${review.mark(i + 1)}</span>`);
  });
  // Rebuilt only when it changed: a rebuild under a finger swallows the tap.
  const html = cells.join('');
  if (html !== movesHtml) {
    $('moves').innerHTML = html;
    movesHtml = html;
    // Notes say what a move does when its notation may puzzle (dh6, cb3, e1~d2).
    $('moves').querySelectorAll('.m').forEach((e) => {
      const h = s.history[parseInt(e.dataset.ply, 10) - 1];
      if (h && h.note) e.title = h.note;
    });
  }
  const shown = ply > 0 ? s.history[ply - 1] : null;
  $('move-note').classList.toggle('hidden', !(shown && shown.note));
  $('move-note').textContent = shown && shown.note ? `${shown.san}: ${shown.note}` : '';
  review.update(s, ply);
  // A finished game: its review comes right under the result (style.css).
  document.querySelector('main.game').classList.toggle('over', s.status === 'finished');
  const cur = $('moves').querySelector('.cur');
  if (cur && live) $('moves').scrollTop = $('moves').scrollHeight;
  // status
  let st;
  if (s.status === 'finished') st = t('game-over');
  else if (openSeek && you.length) st = t('game-waiting-opponent');
  else if (seatWait && you.length) st = t('game-waiting-friend');
  else if (s.thinking) st = t('game-thinking');
  else if (myTurn) st = t('game-your-move', { color: s.turn === 'w' ? 'white' : 'black' });
  else if (you.length) st = t('game-waiting-for', { color: s.turn === 'w' ? 'white' : 'black' });
  else st = t('game-watching', { color: s.turn === 'w' ? 'white' : 'black' });
  // An invite link opened once both seats are taken: say why it only watches.
  if (!you.length && invite && s.mode === 'friend' && !freeSeat) st = t('game-invite-used') + ' ' + st;
  if (!live) st = t('game-reviewing', { ply, of: s.ply }) + ' ' + st;
  $('status').textContent = st;
  const banner = $('banner');
  if (s.status === 'finished') {
    const who = s.result === '1-0' ? t('result-white-wins') : s.result === '0-1' ? t('result-black-wins') : t('result-draw');
    banner.textContent = `${s.result} — ${t('result-by', { who, reason: reasonText(s.reason) })}`;
    banner.classList.remove('hidden');
  } else banner.classList.add('hidden');
  $('join-box').classList.toggle('hidden', !(!you.length && s.status === 'active' && ((freeSeat && invite) || openSeek)));
  $('seek-box').classList.toggle('hidden', !(openSeek && you.length));
  renderEnd(s);
  $('invite-box').classList.toggle('hidden', !(s.mode === 'friend' && freeSeat && you.length && myInvite));
  $('invite').textContent = location.origin + '/game/' + id + '#invite=' + myInvite;
  const offer = s.draw_offer;
  $('draw-box').classList.toggle('hidden', !(offer && you.length && !you.includes(offer)));
  $('draw-text').textContent = offer ? t('game-draw-offered', { color: offer === 'w' ? 'white' : 'black' }) : '';
  const active = s.status === 'active' && you.length > 0 && !openSeek;
  if (!active) $('draw-confirm').classList.add('hidden');
  $('actions').classList.toggle('hidden', !active);
  $('takeback').classList.toggle('hidden', s.mode === 'friend' || s.mode === 'seek' || !!s.rated);
  $('takeback').disabled = s.ply === 0 || s.thinking;
  $('draw').disabled = !!offer;
  $('analyse').href = `/analysis?game=${id}&ply=${ply}`;
  $('pgn').href = `/api/games/${id}/pgn`;
  $('rules').href = `/rules/${s.variant}`;
}

/** Beside a player's name: the account (a link to its profile) and its
 *  rating, and once a rated game is applied to the ratings, the change. */
function renderSeat(slot, c) {
  const s = state;
  const p = s.players && s.players[c];
  const box = $(slot + '-account');
  box.classList.toggle('hidden', !(p && p.username));
  box.dataset.color = c;
  if (p && p.username) {
    const a = $(slot + '-user');
    $(slot + '-title').classList.toggle('hidden', p.title !== 'BOT');
    a.textContent = p.username;
    a.href = profileUrl(p.username);
    const r = $(slot + '-rating');
    r.textContent = p.rating ? String(p.rating) : '';
    r.classList.toggle('hidden', !p.rating);
    r.title = p.rating && String(p.rating).endsWith('?') ? t('provisional-title') : '';
  }
  const d = $(slot + '-diff');
  const g = s.ratings && s.ratings[c];
  const has = !!(g && typeof g.diff === 'number');
  d.classList.toggle('hidden', !has);
  d.dataset.color = c;
  d.classList.toggle('up', has && g.diff > 0);
  d.classList.toggle('down', has && g.diff < 0);
  d.classList.toggle('even', has && g.diff === 0);
  d.textContent = has ? fmtDiff(g.diff) : '';
  if (has) d.title = t('game-rating-diff-title', { before: g.rating, after: g.rating + g.diff });
  else d.removeAttribute('title');
}

/** Rated or casual, by the title; at the end of a rated game, whether the
 *  ratings are changed yet. */
function renderKind() {
  const s = state;
  const k = $('game-kind');
  k.classList.remove('hidden');
  k.textContent = s.rated ? t('rated') : t('casual');
  k.classList.toggle('rated', !!s.rated);
  k.classList.toggle('casual', !s.rated);
  // A correspondence game: its days per move.
  const days = s.clock && s.clock.days;
  $('game-days').classList.toggle('hidden', !days);
  $('game-days').textContent = days ? t('days-a-move', { n: days }) : '';
  const note = $('rating-note');
  const decided = ['1-0', '0-1', '1/2-1/2'].includes(s.result);
  let text = '';
  if (s.rated && s.status === 'finished' && decided) {
    const g = s.ratings;
    const one = (c) => `${WORDS[c]} ${g[c].rating} → ${g[c].rating + g[c].diff} (${fmtDiff(g[c].diff)})`;
    text = g && g.w && g.b ? t('game-ratings', { w: one('w'), b: one('b') }) : t('game-ratings-updating');
  }
  note.classList.toggle('hidden', !text);
  if (note.textContent !== text) note.textContent = text;
}

/** The end of the game: rematch (offer, accept, decline) and a new game. */
function renderEnd(s) {
  const over = s.status === 'finished';
  $('end-box').classList.toggle('hidden', !over);
  if (!over) return;
  const seated = you.length > 0;
  const offer = s.rematch_offer;
  const mine = offer && you.includes(offer) && s.mode !== 'hotseat';
  const theirs = offer && seated && !you.includes(offer);
  $('rematch').classList.toggle('hidden', !seated || !!s.rematch || theirs);
  $('rematch').disabled = !!mine;
  $('rematch').textContent = s.mode === 'engine' || s.mode === 'hotseat' ? t('game-rematch-swapped') : t('game-offer-rematch');
  $('rematch-wait').classList.toggle('hidden', !mine);
  $('rematch-wait').textContent = t('game-rematch-offered');
  $('rematch-offer').classList.toggle('hidden', !theirs);
  $('rematch-text').textContent = theirs ? t('game-rematch-offer', { who: playerName(offer) }) : '';
  $('rematch-link').classList.toggle('hidden', !s.rematch);
  if (s.rematch) $('rematch-link').innerHTML = `${esc(t('game-rematch-on'))} <a id="rematch-go" href="/game/${encodeURIComponent(s.rematch)}">${esc(seated ? t('game-play-it') : t('game-watch-it'))}</a>.`;
  const q = new URLSearchParams({ variant: s.variant, mode: s.mode });
  for (const [k, v] of Object.entries(s.options || {})) q.set(k, v);
  if (s.rated) q.set('rated', '1');
  // The same time control and computer level.
  if (s.clock && s.clock.days) q.set('days', s.clock.days);
  else if (s.clock) { q.set('minutes', s.clock.initial / 60000); q.set('increment', s.clock.increment / 1000); }
  if (s.mode === 'engine' && s.engine_level) q.set('level', s.engine_level);
  $('new-game').href = '/?' + q.toString();
}

/** The ms left on colour c's clock now (counting down while it runs). */
function clockLeft(c) {
  const s = state;
  if (!s || !s.clock) return null;
  const running = s.clock.running === c && s.status === 'active';
  const elapsed = clockBase ? performance.now() - clockBase : 0;
  return (c === 'w' ? s.clock.white : s.clock.black) - (running ? elapsed : 0);
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
  if (b.dataset.armed) { delete b.dataset.armed; b.textContent = t('game-resign'); send({ t: 'resign' }); return; }
  b.dataset.armed = '1';
  b.textContent = t('game-really-resign');
  setTimeout(() => { delete b.dataset.armed; b.textContent = t('game-resign'); }, 4000);
};
// A draw offer asks first (as lichess does). In a hot-seat game both players
// sit at this device, so the offer is the agreement and ends the game.
$('draw').onclick = () => {
  $('draw-confirm-text').textContent = state.mode === 'hotseat'
    ? t('game-draw-hotseat')
    : state.mode === 'engine' ? t('game-draw-computer') : t('game-draw-opponent');
  $('draw-confirm').classList.remove('hidden');
};
$('draw-yes').onclick = () => { $('draw-confirm').classList.add('hidden'); send({ t: 'draw_offer' }); };
$('draw-no').onclick = () => $('draw-confirm').classList.add('hidden');
$('rematch').onclick = () => send({ t: 'rematch' });
$('rematch-accept').onclick = () => send({ t: 'rematch' });
$('rematch-decline').onclick = () => send({ t: 'rematch_decline' });
$('seek-cancel').onclick = async () => {
  try {
    await api(`/api/games/${id}/cancel`, { token });
    stopped = true;
    location.href = '/';
  } catch (e) { toast(e.message); }
};
muteButton($('mute'));
$('draw-accept').onclick = () => send({ t: 'draw_accept' });
$('draw-decline').onclick = () => send({ t: 'draw_decline' });
$('takeback').onclick = () => send({ t: 'takeback' });
$('join').onclick = async () => {
  try {
    const body = invite ? { invite } : {};
    const name = myName();
    if (name) body.name = name;
    const r = await api(`/api/games/${id}/join`, body);
    saveToken(id, r.token, r.colors);
    token = r.token;
    if (ws) { ws.onclose = null; ws.close(); }
    if (r.colors[0] === 'black') board.setOrientation('b');
    connect();
  } catch (e) { toast(e.message); }
};

/** No seat token in this browser: a logged-in player's seat comes from the
 *  account (so seats follow the player to any device). A 404 (or anything
 *  gone wrong) means watching, as without an account. */
async function seatFromAccount() {
  if (token) return;
  try {
    if (!(await account())) return;
    const r = await api(`/api/games/${encodeURIComponent(id)}/seat`);
    if (!r.token || token) return;
    saveToken(id, r.token, r.colors || []);
    token = r.token;
  } catch (_) { /* a spectator */ }
}

/** The screen-reader mode (the look's `blind` setting). */
const screenReader = screenReaderMode({
  state: () => state, you: () => you, live: () => viewPly === null || (state && viewPly === state.ply),
  send, clockLeft,
}, (mode) => { if (state) mode.update(null, state); });

screenReader.first.finally(() => seatFromAccount().then(connect));
