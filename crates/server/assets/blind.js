// Screen-reader mode of the game page, after lichess's blind mode: the
// board and the variant's state read as text, moves typed (SAN as the move
// list writes it, or UCI) and sent on Enter, the opponent's moves, clocks,
// offers and the end announced through ARIA live regions. game.js loads it
// when the look's `blind` setting is on.
//
// No rules live here: a typed move is read by the rules crate
// (POST /api/position with `parse`, the same SAN reader as PGN import), and
// the move lists come from the game's state (the server's legal moves).
import { api, fmtClock } from './common.js';
import { parsePlacement } from './board.js';

// Every word this mode says, in one place (for the translation catalogs).
const WORDS = {
  title: 'Screen reader mode',
  moveLabel: 'Your move, or a command',
  play: 'Play',
  shortHelp: 'Type a move as the move list writes it (Nf3, exd5, O-O, Gd2, K@e1, !Nb4, Nc3(!C), e1~d2) or in UCI (g1f3), then press Enter. Commands: b board, r ranks, s variant state, c clocks, l last move, m legal moves (m e2: from e2), t whose turn, h help.',
  readAloud: 'Read',
  announcements: 'Announcements',
  helpTitle: 'Every command',
  confirmLabel: 'Ask before sending a typed move',
  buttons: { b: 'Board', r: 'Ranks', s: 'Variant state', c: 'Clocks', l: 'Last move', m: 'Legal moves', t: 'Whose turn' },
  help: [
    ['b', 'the board as piece lists: White\'s pieces, then Black\'s'],
    ['r', 'the board rank by rank, from rank 8 down (White\'s side at the bottom)'],
    ['s', 'the variant\'s state: Genie flips, reserves, hands and re-entries, rings, their levels and powers'],
    ['c', 'both clocks'],
    ['l', 'the last move'],
    ['m', 'every legal move; m e2 those of the piece on e2; m @ (or m N) the placements and re-entries'],
    ['t', 'whose turn it is, and the game\'s status'],
    ['h', 'this help'],
    ['↑', 'the up arrow in the field brings back the last text typed'],
    ['Tab', 'the game\'s buttons follow the board: resign, offer a draw, takeback, flip, analyse, rematch'],
  ],
  side: { w: 'White', b: 'Black' },
  roles: { P: 'pawn', N: 'knight', B: 'bishop', R: 'rook', Q: 'queen', K: 'king', G: 'genie', C: 'clown' },
  rolesPlural: { P: 'pawns', N: 'knights', B: 'bishops', R: 'rooks', Q: 'queens', K: 'kings', G: 'genies', C: 'clowns' },
  castleShort: 'short castle',
  castleLong: 'long castle',
  takes: 'takes',
  from: 'from',
  to: 'to',
  promotes: (r) => `promotes to ${r}`,
  check: 'check',
  mate: 'checkmate',
  placed: (r, sq) => `${r} placed on ${sq}`,
  reenters: (r, sq) => `${r} re-enters on ${sq}`,
  flips: (sq) => `pawn on ${sq} flips into a Genie`,
  declared: 'declared a Clown',
  ringPass: (from, to) => `ring passed from ${from} to ${to}`,
  ringOf: (c) => `${c}'s ring`,
  played: (who, words, san) => `${who} played ${words} (${san}).`,
  youPlayed: (words, san) => `You played ${words} (${san}).`,
  sent: (words) => `Sending ${words}…`,
  confirm: (words, san) => `Play ${words} (${san})? Press Enter to confirm, Escape to cancel.`,
  cancelled: 'Move cancelled.',
  notYourTurn: 'It is not your turn.',
  notPlaying: 'You are not playing in this game: you may read it, not move.',
  notActive: 'The game is over: no more moves.',
  reviewing: 'Not at the current position: press End first (or the last-move button).',
  illegal: (text, why) => `Not a legal move: ${text}. ${why.charAt(0).toUpperCase()}${why.slice(1)}.`,
  changed: 'The position changed meanwhile: type your move again.',
  failed: (why) => `The move could not be checked: ${why}`,
  empty: 'Type a move or a command (h for help).',
  board: (side, list) => `${side}: ${list || 'no pieces on the board'}.`,
  rank: (n, list) => `Rank ${n}: ${list || 'empty'}.`,
  reserveName: 'Reserve',
  reserve: (name, side, list) => `${name}, ${side}: ${list || 'empty'}.`,
  noState: 'This game has no variant state beyond the board.',
  clock: (side, t, running) => `${side} ${t}${running ? ', running' : ''}`,
  noClock: 'This game has no clock.',
  clockLow: (t) => `Your clock: ${t} left.`,
  noMoveYet: 'No move has been played yet.',
  last: (n, who, words, san) => `Move ${n}, ${who}: ${words} (${san}).`,
  legal: (n, list) => `${n} legal ${n === 1 ? 'move' : 'moves'}: ${list}.`,
  noLegal: 'No legal moves here.',
  noneFrom: (sq) => `No legal move from ${sq}.`,
  placements: (r, letter, n) => `${r} placed on any of ${n} ${n === 1 ? 'square' : 'squares'} (m ${letter} lists them)`,
  yourMove: (side) => `Your move (${side}).`,
  theirMove: (side) => `${side} to move.`,
  thinking: 'The computer is thinking.',
  waitingSeat: 'Waiting for an opponent to take the other seat.',
  opening: (variant, you) => `${variant}. ${you}`,
  youPlay: (side) => `You play ${side}.`,
  watching: 'You are watching this game.',
  joined: 'Your opponent has joined: the game is on.',
  over: (result, who, reason) => `Game over: ${who} by ${reason} (${result}).`,
  wins: { '1-0': 'White wins', '0-1': 'Black wins', '1/2-1/2': 'Draw' },
  drawOffer: (side) => `${side} offers a draw: the Accept draw and Decline buttons follow in the game panel.`,
  drawGone: 'The draw offer is no longer on the table.',
  rematchOffer: (side) => `${side} offers a rematch.`,
  takeback: (n) => `Takeback: the game is back at move ${n}.`,
  sec: (n) => `${n} ${n === 1 ? 'second' : 'seconds'}`,
  min: (n) => `${n} ${n === 1 ? 'minute' : 'minutes'}`,
};

const SQUARE = /^[a-h][1-8]$/;
const CLOCK_WARNINGS = [60000, 30000, 10000];

/** A SAN in words ("knight takes f3, check"), from the SAN the rules crate
 *  wrote and the move's kind (flip, drop, reentry, declare, ringpass...). */
export function sanWords(san, kind) {
  const W = WORDS;
  let s = String(san || '');
  let tail = '';
  if (s.endsWith('#')) { tail = `, ${W.mate}`; s = s.slice(0, -1); }
  else if (s.endsWith('+')) { tail = `, ${W.check}`; s = s.slice(0, -1); }
  const role = (ch) => W.roles[ch] || ch;
  let m;
  if (/^O-O-O/.test(s)) return W.castleLong + tail;
  if (/^O-O/.test(s)) return W.castleShort + tail;
  if ((m = /^([A-Z])@([a-h][1-8])$/.exec(s))) return W.placed(role(m[1]), m[2]) + tail;
  if ((m = /^!([A-Z])([a-h][1-8])$/.exec(s))) return W.reenters(role(m[1]), m[2]) + tail;
  if ((m = /^([a-h][1-8])~([a-h][1-8])(?:\(([wb])\))?$/.exec(s))) {
    return W.ringPass(m[1], m[2]) + (m[3] ? ` (${W.ringOf(W.side[m[3]])})` : '') + tail;
  }
  if (kind === 'flip' && (m = /^G([a-h][1-8])$/.exec(s))) return W.flips(m[1]) + tail;
  let declared = '';
  if (s.endsWith('(!C)')) { declared = `, ${W.declared}`; s = s.slice(0, -4); }
  m = /^([KQRBNGC])?([a-h]?[1-8]?)(x?)([a-h][1-8])(?:=([A-Z]))?$/.exec(s);
  if (!m) return san;
  const words = [m[1] ? role(m[1]) : role('P')];
  if (m[2]) words.push(`${W.from} ${m[2]}`);
  if (m[3]) words.push(W.takes);
  else if (m[2]) words.push(W.to);
  words.push(m[4]);
  let out = words.join(' ');
  if (m[5]) out += `, ${W.promotes(role(m[5]))}`;
  return out + declared + tail;
}

/** A clock's time in words: "4 minutes 58 seconds", "9.5 seconds". */
function clockWords(ms) {
  if (ms >= 3600000) return fmtClock(ms);
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  const m = Math.floor(s / 60);
  const parts = [];
  if (m) parts.push(WORDS.min(m));
  if (s % 60 || !m) parts.push(WORDS.sec(s % 60));
  return parts.join(' ');
}

/**
 * Starts the mode on the game page. ctx: { state(), you(), live(), send(msg),
 * clockLeft(color) (ms, counting down while it runs) }. Returns
 * { update(prev, state), error(message), stop() }.
 */
export function start(ctx) {
  const $ = (id) => document.getElementById(id);
  const W = WORDS;
  const h1 = document.querySelector('main h1');
  const box = document.createElement('section');
  box.id = 'blind';
  box.className = 'panel blind';
  box.setAttribute('aria-labelledby', 'blind-title');
  const buttons = Object.entries(W.buttons).map(([k, label]) =>
    `<button type="button" data-cmd="${k}">${label}</button>`).join('');
  box.innerHTML = `<h2 id="blind-title" class="flush">${W.title}</h2>
<form id="blind-form" class="blind-form" autocomplete="off">
<label for="blind-move">${W.moveLabel}</label>
<div class="row"><input id="blind-move" autocomplete="off" autocapitalize="off" spellcheck="false" aria-describedby="blind-short-help"><button type="submit" class="primary">${W.play}</button></div>
</form>
<p id="blind-short-help" class="field-hint">${W.shortHelp}</p>
<div id="blind-reply" class="blind-reply" role="status" aria-live="assertive" aria-atomic="true"></div>
<div class="controls blind-read" role="group" aria-label="${W.readAloud}">${buttons}</div>
<div class="check"><input type="checkbox" id="blind-confirm"><label for="blind-confirm">${W.confirmLabel}</label></div>
<details class="blind-help"><summary>${W.helpTitle}</summary><ul>${W.help.map(([k, t]) => `<li><kbd>${k}</kbd>: ${t}</li>`).join('')}</ul></details>
<h3 class="blind-said-title">${W.announcements}</h3>
<div id="blind-said" class="blind-said" tabindex="0" role="log" aria-live="polite" aria-relevant="additions"></div>`;
  h1.after(box);
  // As on lichess: the move field has the focus from the start.
  if (!document.activeElement || document.activeElement === document.body) $('blind-move').focus();
  // The drawn board, its pockets and hint buttons: hidden from assistive
  // technology and out of the Tab order (still drawn for sighted helpers).
  const hidden = ['board', 'pocket-top', 'pocket-bottom', 'hint'].map($).filter(Boolean);
  for (const e of hidden) { e.setAttribute('aria-hidden', 'true'); e.inert = true; }

  const input = $('blind-move');
  const reply = $('blind-reply');
  const said = $('blind-said');
  const confirmBox = $('blind-confirm');
  confirmBox.checked = localStorage.getItem('chimera.blind.confirm') === '1';
  confirmBox.onchange = () => localStorage.setItem('chimera.blind.confirm', confirmBox.checked ? '1' : '0');
  let pending = null; // a move waiting for its confirmation: {uci, san, ply}
  let sentPly = null; // the ply at which our last move was sent
  const warned = { w: Infinity, b: Infinity };

  /** The answer to what the player typed or pressed (spoken at once). */
  const answer = (text) => {
    // The same text twice must be spoken twice: empty the region first.
    reply.textContent = '';
    setTimeout(() => { reply.textContent = text; }, 30);
  };
  /** A game event: appended to the log (the last 30 kept). */
  const announce = (text) => {
    const p = document.createElement('p');
    p.textContent = text;
    said.appendChild(p);
    while (said.children.length > 30) said.firstElementChild.remove();
  };

  const s = () => ctx.state();
  const mine = () => ctx.you();
  const who = (c) => W.side[c];

  // ---- reading ----
  function pieceLists() {
    const st = s();
    const placed = parsePlacement(st.board || st.fen.split(' ')[0]);
    const out = [];
    for (const c of ['w', 'b']) {
      const byRole = {};
      for (const [sq, ch] of Object.entries(placed)) {
        const isW = ch === ch.toUpperCase();
        if ((c === 'w') !== isW) continue;
        (byRole[ch.toUpperCase()] ||= []).push(sq);
      }
      const order = ['K', 'Q', 'G', 'C', 'R', 'B', 'N', 'P'];
      const roles = Object.keys(byRole).sort((a, b) => order.indexOf(a) - order.indexOf(b));
      const list = roles.map((r) => {
        const sqs = byRole[r].sort();
        const name = sqs.length > 1 ? W.rolesPlural[r] || r : W.roles[r] || r;
        return `${name.charAt(0).toUpperCase()}${name.slice(1)} ${sqs.join(' ')}`;
      }).join(', ');
      out.push(W.board(who(c), list));
    }
    return out.join(' ');
  }

  function ranks() {
    const st = s();
    const placed = parsePlacement(st.board || st.fen.split(' ')[0]);
    const out = [];
    for (let r = 8; r >= 1; r--) {
      const list = [];
      for (const f of 'abcdefgh') {
        const ch = placed[f + r];
        if (ch) list.push(`${f}${r} ${ch === ch.toUpperCase() ? who('w') : who('b')} ${W.roles[ch.toUpperCase()] || ch}`);
      }
      out.push(W.rank(r, list.join(', ')));
    }
    return out.join(' ');
  }

  function variantState() {
    const st = s();
    const out = [...(st.state_lines || [])];
    // A Genesis reserve (a Clown's hand is in its lines already).
    if (st.variant !== 'clown') {
      for (const c of ['w', 'b']) {
        const p = (st.pockets && st.pockets[c]) || {};
        const list = Object.entries(p).filter(([, n]) => n > 0)
          .map(([r, n]) => (n > 1 ? `${n} ${W.rolesPlural[r] || r}` : `1 ${W.roles[r] || r}`)).join(', ');
        if (st.pocket_name || list) out.push(W.reserve(st.pocket_name || W.reserveName, who(c), list));
      }
    }
    // Genies standing on the board.
    const placed = parsePlacement(st.board || '');
    const genies = Object.entries(placed).filter(([, ch]) => ch.toUpperCase() === 'G')
      .map(([sq, ch]) => `${ch === 'G' ? who('w') : who('b')} ${W.roles.G} ${sq}`);
    if (genies.length) out.push(genies.join(', ') + '.');
    return out.length ? out.join(' ') : W.noState;
  }

  function clocks() {
    const st = s();
    if (!st.clock) return W.noClock;
    return ['w', 'b'].map((c) => W.clock(who(c), clockWords(ctx.clockLeft(c)),
      st.status === 'active' && st.clock.running === c)).join('; ') + '.';
  }

  function lastMove() {
    const st = s();
    if (!st.ply) return W.noMoveYet;
    const h = st.history[st.ply - 1];
    const mover = moverOf(st.ply - 1);
    return W.last(Math.ceil(st.ply / 2), who(mover), sanWords(h.san, h.kind), h.san);
  }

  /** Who made ply index i (0 for the first move). */
  function moverOf(i) {
    const st = s();
    const first = (st.start_fen || '').split(' ')[1] === 'b' ? 'b' : 'w';
    return (i % 2 === 0) === (first === 'w') ? 'w' : 'b';
  }

  function legalMoves(arg) {
    const st = s();
    const legal = st.legal || {};
    const all = Object.entries(legal);
    if (!all.length) return W.noLegal;
    if (arg && SQUARE.test(arg)) {
      const ms = legal[arg] || [];
      return ms.length ? W.legal(ms.length, ms.map((m) => m[1]).join(', ')) : W.noneFrom(arg);
    }
    const drops = legal['@'] || [];
    if (arg && (arg === '@' || /^[a-z]$/i.test(arg))) {
      const ms = arg === '@' ? drops : drops.filter((m) => m[1].replace('!', '').charAt(0) === arg.toUpperCase());
      return ms.length ? W.legal(ms.length, ms.map((m) => m[1]).join(', ')) : W.noLegal;
    }
    const moves = all.filter(([k]) => k !== '@').flatMap(([, ms]) => ms.map((m) => m[1]));
    // Placements are many (a Genesis reserve reaches every empty square):
    // counted per piece, listed with "m N".
    const byRole = {};
    for (const m of drops) { const r = m[1].replace('!', '').charAt(0); byRole[r] = (byRole[r] || 0) + 1; }
    const dropWords = Object.entries(byRole).map(([r, n]) => W.placements(W.roles[r] || r, r, n));
    return W.legal(moves.length + drops.length, moves.concat(dropWords).join(', '));
  }

  function turnWords() {
    const st = s();
    if (st.status !== 'active') return overWords(st);
    const you = mine();
    const seatWait = (st.mode === 'friend' || st.mode === 'seek') && (!st.seats.w || !st.seats.b);
    if (seatWait) return W.waitingSeat;
    if (st.thinking) return W.thinking;
    if (you.includes(st.turn) && st.engine_color !== st.turn) return W.yourMove(who(st.turn));
    return W.theirMove(who(st.turn));
  }

  function overWords(st) {
    return W.over(st.result, W.wins[st.result] || st.result, st.reason || '');
  }

  const COMMANDS = {
    b: pieceLists, r: ranks, s: variantState, c: clocks, l: lastMove, m: legalMoves, t: turnWords,
    h: () => W.shortHelp,
  };

  // ---- moves ----
  async function typed(text) {
    const t = text.trim();
    if (pending) {
      // Enter on the same text confirms; anything else is read anew.
      const p = pending;
      pending = null;
      if (!t || t === p.text) return sendMove(p);
    }
    if (!t) return answer(W.empty);
    const [cmd, ...rest] = t.split(/\s+/);
    if (COMMANDS[cmd.toLowerCase()] && cmd.length === 1) return answer(COMMANDS[cmd.toLowerCase()](rest.join(' ')));
    const st = s();
    if (st.status !== 'active') return answer(W.notActive);
    const you = mine();
    if (!you.length) return answer(W.notPlaying);
    if (!ctx.live()) return answer(W.reviewing);
    if (!you.includes(st.turn) || st.engine_color === st.turn) return answer(W.notYourTurn);
    const ply = st.ply;
    let r;
    try {
      r = await api('/api/position', {
        variant: st.variant, options: st.options || {}, fen: st.start_fen || undefined,
        moves: st.history.map((h) => h.uci), parse: t,
      });
    } catch (e) { return answer(W.failed(e.message)); }
    const p = r.parsed || {};
    if (p.error) return answer(W.illegal(t, p.error));
    const now = s();
    // The rules crate's move must be one the game's own state offers now.
    const offered = Object.values(now.legal || {}).some((ms) => ms.some((m) => m[0] === p.uci));
    if (now.ply !== ply || !offered) return answer(W.changed);
    const move = { uci: p.uci, san: p.san, ply, text: t, kind: kindOf(p.uci) };
    if (confirmBox.checked) {
      pending = move;
      return answer(W.confirm(sanWords(p.san, move.kind), p.san));
    }
    return sendMove(move);
  }

  function kindOf(uci) {
    for (const ms of Object.values(s().legal || {})) for (const m of ms) if (m[0] === uci) return m[2];
    return 'move';
  }

  function sendMove(m) {
    if (s().ply !== m.ply) return answer(W.changed);
    sentPly = m.ply;
    ctx.send({ t: 'move', uci: m.uci, ply: m.ply });
    input.value = '';
    answer(W.sent(sanWords(m.san, m.kind)));
  }

  // The field is emptied for the next move or command (the answer repeats
  // what was typed); the up arrow brings the last text back to correct it.
  let lastTyped = '';
  $('blind-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value;
    if (text.trim()) lastTyped = text;
    if (!confirmBox.checked) input.value = '';
    typed(text);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && pending) { pending = null; input.value = ''; answer(W.cancelled); }
    else if (e.key === 'ArrowUp' && lastTyped) { e.preventDefault(); input.value = lastTyped; }
  });
  box.querySelector('.blind-read').addEventListener('click', (e) => {
    const b = e.target.closest('button[data-cmd]');
    if (b) answer(COMMANDS[b.dataset.cmd](''));
  });

  // ---- announcements ----
  function update(prev, st) {
    const you = mine();
    if (!prev) {
      const role = you.length === 1 ? W.youPlay(who(you[0])) : you.length ? '' : W.watching;
      announce(W.opening(st.variant_name, `${role} ${turnWords()}`.trim()));
      return;
    }
    if (st.ply > prev.ply) {
      for (let i = prev.ply; i < st.ply; i++) {
        const h = st.history[i];
        const mover = moverOf(i);
        const words = sanWords(h.san, h.kind);
        const ours = you.includes(mover) && st.mode !== 'hotseat' && st.engine_color !== mover;
        announce(ours ? W.youPlayed(words, h.san) : W.played(who(mover), words, h.san));
      }
      if (sentPly !== null && st.ply > sentPly) { sentPly = null; reply.textContent = ''; }
    } else if (st.ply < prev.ply) {
      announce(W.takeback(Math.floor(st.ply / 2) + 1));
    }
    const seatWait = (x) => (x.mode === 'friend' || x.mode === 'seek') && (!x.seats.w || !x.seats.b);
    if (seatWait(prev) && !seatWait(st) && st.status === 'active' && you.length) announce(W.joined);
    if (st.draw_offer && st.draw_offer !== prev.draw_offer && !you.includes(st.draw_offer)) announce(W.drawOffer(who(st.draw_offer)));
    else if (!st.draw_offer && prev.draw_offer && st.status === 'active') announce(W.drawGone);
    if (st.status === 'finished' && prev.status !== 'finished') announce(overWords(st));
    if (st.rematch_offer && st.rematch_offer !== prev.rematch_offer && !you.includes(st.rematch_offer)) announce(W.rematchOffer(who(st.rematch_offer)));
    // A move just ours to make after the opponent's: say so.
    if (st.status === 'active' && st.ply > prev.ply && you.includes(st.turn) && st.engine_color !== st.turn && st.mode !== 'hotseat') {
      announce(W.yourMove(who(st.turn)));
    }
  }

  // Clock warnings: once each under a minute, 30 s and 10 s, for the
  // player's own running clock (again after an increment lifts it).
  const timer = setInterval(() => {
    const st = s();
    if (!st || !st.clock || st.clock.days || st.status !== 'active') return;
    for (const c of mine()) {
      const ms = ctx.clockLeft(c);
      const next = CLOCK_WARNINGS.find((w) => ms < w && w < warned[c]);
      if (next !== undefined && st.clock.running === c) {
        warned[c] = CLOCK_WARNINGS.filter((w) => ms < w).pop();
        announce(W.clockLow(clockWords(ms)));
      } else if (ms > warned[c] + 5000) warned[c] = Math.min(...CLOCK_WARNINGS.filter((w) => w > ms), Infinity);
    }
  }, 250);

  function error(message) { answer(message); }

  function stop() {
    clearInterval(timer);
    box.remove();
    for (const e of hidden) { e.removeAttribute('aria-hidden'); e.inert = false; }
  }

  return { update, error, stop, input };
}
