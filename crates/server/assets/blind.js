// Screen-reader mode of the game page, after lichess's blind mode: the
// board and the variant's state read as text, moves typed (SAN as the move
// list writes it, or UCI) and sent on Enter, the opponent's moves, clocks,
// offers and the end announced through ARIA live regions. game.js loads it
// when the look's `blind` setting is on.
//
// No rules live here: a typed move is read by the rules crate
// (POST /api/position with `parse`, the same SAN reader as PGN import), and
// the move lists come from the game's state (the server's legal moves).
import { api, fmtClock, reasonText, variantName, t } from './common.js';
import { parsePlacement } from './board.js';

// Every word this mode says, in one place: the catalogs' blind-* messages
// (assets/i18n/*.ftl).
const WORDS = {
  title: t('blind-title'),
  moveLabel: t('blind-move-label'),
  play: t('blind-play'),
  shortHelp: t('blind-short-help'),
  readAloud: t('blind-read-aloud'),
  announcements: t('blind-announcements'),
  helpTitle: t('blind-help-title'),
  confirmLabel: t('blind-confirm-label'),
  buttons: {
    b: t('blind-button-board'), r: t('blind-button-ranks'), s: t('blind-button-state'), c: t('blind-button-clocks'),
    l: t('blind-button-last'), m: t('blind-button-legal'), t: t('blind-button-turn'),
  },
  help: [
    ['b', t('blind-help-b')],
    ['r', t('blind-help-r')],
    ['s', t('blind-help-s')],
    ['c', t('blind-help-c')],
    ['l', t('blind-help-l')],
    ['m', t('blind-help-m')],
    ['t', t('blind-help-t')],
    ['h', t('blind-help-h')],
    ['↑', t('blind-help-up')],
    ['Tab', t('blind-help-tab')],
  ],
  side: { w: t('blind-white'), b: t('blind-black') },
  roles: {
    P: t('blind-pawn'), N: t('blind-knight'), B: t('blind-bishop'), R: t('blind-rook'), Q: t('blind-queen'),
    K: t('blind-king'), G: t('blind-genie'), C: t('blind-clown'),
  },
  rolesPlural: {
    P: t('blind-pawns'), N: t('blind-knights'), B: t('blind-bishops'), R: t('blind-rooks'), Q: t('blind-queens'),
    K: t('blind-kings'), G: t('blind-genies'), C: t('blind-clowns'),
  },
  castleShort: t('blind-castle-short'),
  castleLong: t('blind-castle-long'),
  takes: t('blind-takes'),
  from: t('blind-from'),
  to: t('blind-to'),
  promotes: (role) => t('blind-promotes', { role }),
  check: t('blind-check'),
  mate: t('blind-mate'),
  placed: (role, square) => t('blind-placed', { role, square }),
  reenters: (role, square) => t('blind-reenters', { role, square }),
  flips: (square) => t('blind-flips', { square }),
  declared: t('blind-declared'),
  ringPass: (from, to) => t('blind-ring-pass', { from, to }),
  ringOf: (side) => t('blind-ring-of', { side }),
  played: (side, words, san) => t('blind-played', { side, words, san }),
  youPlayed: (words, san) => t('blind-you-played', { words, san }),
  sent: (words) => t('blind-sent', { words }),
  confirm: (words, san) => t('blind-confirm', { words, san }),
  cancelled: t('blind-cancelled'),
  notYourTurn: t('blind-not-your-turn'),
  notPlaying: t('blind-not-playing'),
  notActive: t('blind-not-active'),
  reviewing: t('blind-reviewing'),
  illegal: (move, why) => t('blind-illegal', { move, why: `${why.charAt(0).toUpperCase()}${why.slice(1)}` }),
  changed: t('blind-changed'),
  failed: (error) => t('blind-failed', { error }),
  empty: t('blind-empty'),
  board: (side, list) => (list ? t('blind-board', { side, list }) : t('blind-board-empty', { side })),
  rank: (n, list) => (list ? t('blind-rank', { n: String(n), list }) : t('blind-rank-empty', { n: String(n) })),
  squarePiece: (square, side, role) => t('blind-square-piece', { square, side, role }),
  genieAt: (side, role, square) => t('blind-genie-at', { side, role, square }),
  reserveName: t('blind-reserve-name'),
  reserve: (name, side, list) => (list ? t('blind-reserve', { name, side, list }) : t('blind-reserve-empty', { name, side })),
  noState: t('blind-no-state'),
  clock: (side, time, running) => (running ? t('blind-clock-running', { side, time }) : t('blind-clock', { side, time })),
  noClock: t('blind-no-clock'),
  clockLow: (time) => t('blind-clock-low', { time }),
  noMoveYet: t('blind-no-move-yet'),
  last: (n, side, words, san) => t('blind-last', { n, side, words, san }),
  legal: (n, list) => t('blind-legal', { n, list }),
  noLegal: t('blind-no-legal'),
  noneFrom: (square) => t('blind-none-from', { square }),
  placements: (role, letter, n) => t('blind-placements', { role, letter, n }),
  yourMove: (side) => t('blind-your-move', { side }),
  theirMove: (side) => t('blind-their-move', { side }),
  thinking: t('blind-thinking'),
  waitingSeat: t('blind-waiting-seat'),
  opening: (variant, you) => `${variant}. ${you}`,
  youPlay: (side) => t('blind-you-play', { side }),
  watching: t('blind-watching'),
  joined: t('blind-joined'),
  over: (result, who, reason) => t('blind-over', { result, who, reason }),
  wins: { '1-0': t('blind-white-wins'), '0-1': t('blind-black-wins'), '1/2-1/2': t('blind-draw') },
  drawOffer: (side) => t('blind-draw-offer', { side }),
  drawGone: t('blind-draw-gone'),
  rematchOffer: (side) => t('blind-rematch-offer', { side }),
  takeback: (n) => t('blind-takeback', { n }),
  sec: (n) => t('blind-seconds', { n }),
  min: (n) => t('blind-minutes', { n }),
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
<details class="blind-help"><summary>${W.helpTitle}</summary><ul>${W.help.map(([k, words]) => `<li><kbd>${k}</kbd>: ${words}</li>`).join('')}</ul></details>
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
        if (ch) list.push(W.squarePiece(f + r, ch === ch.toUpperCase() ? who('w') : who('b'), W.roles[ch.toUpperCase()] || ch));
      }
      out.push(W.rank(r, list.join(', ')));
    }
    return out.join(' ');
  }

  function variantState() {
    const st = s();
    const out = [...(st.state_lines || [])];
    // The pockets, piece by piece (a Genesis reserve, a Clown's hand), as
    // the variant's descriptor names them.
    for (const c of ['w', 'b']) {
      const p = (st.pockets && st.pockets[c]) || {};
      const list = Object.entries(p).filter(([, n]) => n > 0)
        .map(([r, n]) => (n > 1 ? `${n} ${W.rolesPlural[r] || r}` : `1 ${W.roles[r] || r}`)).join(', ');
      if (st.pocket_name || list) out.push(W.reserve(st.pocket_name || W.reserveName, who(c), list));
    }
    // Genies standing on the board.
    const placed = parsePlacement(st.board || '');
    const genies = Object.entries(placed).filter(([, ch]) => ch.toUpperCase() === 'G')
      .map(([sq, ch]) => W.genieAt(ch === 'G' ? who('w') : who('b'), W.roles.G, sq));
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
    return W.over(st.result, W.wins[st.result] || st.result, reasonText(st.reason || ''));
  }

  const COMMANDS = {
    b: pieceLists, r: ranks, s: variantState, c: clocks, l: lastMove, m: legalMoves, t: turnWords,
    h: () => W.shortHelp,
  };

  // ---- moves ----
  async function typed(text) {
    const typedText = text.trim();
    if (pending) {
      // Enter on the same text confirms; anything else is read anew.
      const p = pending;
      pending = null;
      if (!typedText || typedText === p.text) return sendMove(p);
    }
    if (!typedText) return answer(W.empty);
    const [cmd, ...rest] = typedText.split(/\s+/);
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
        moves: st.history.map((h) => h.uci), parse: typedText,
      });
    } catch (e) { return answer(W.failed(e.message)); }
    const p = r.parsed || {};
    if (p.error) return answer(W.illegal(typedText, p.error));
    const now = s();
    // The rules crate's move must be one the game's own state offers now.
    const offered = Object.values(now.legal || {}).some((ms) => ms.some((m) => m[0] === p.uci));
    if (now.ply !== ply || !offered) return answer(W.changed);
    const move = { uci: p.uci, san: p.san, ply, text: typedText, kind: kindOf(p.uci) };
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
      announce(W.opening(variantName(st.variant_name), `${role} ${turnWords()}`.trim()));
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
