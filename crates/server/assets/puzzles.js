// /puzzles/{set}: the puzzle player. The board is the game's own
// (board.js); the puzzle, the legal moves and every verdict come from the
// server (GET /api/puzzles/{set}/next|daily|{id}, POST .../{id}/round),
// which judges the move with the rules and rates the round. No rules and
// no solution live here: the page learns the solution from the verdict.
import { Board } from './board.js';
import { api, screenReaderMode, toast, header, esc, t } from './common.js';
import { setName, themeName, themeHelp } from './puzzle-words.js';

const WORDS = {
  setTitle: (name) => t('puzzle-set-title', { name }),
  dailyTitle: (name) => t('puzzle-daily-title', { name }),
  task: (side) => t('puzzle-task', { side }),
  rating: (rating, plays) => t('puzzle-rating', { rating, plays }),
  themes: (themes) => t('puzzle-themes', { themes }),
  you: (rating) => t('puzzles-your-rating', { rating }),
  noRating: t('puzzles-no-rating'),
  logIn: t('puzzles-log-in'),
  replay: t('puzzle-replay'),
  waiting: t('puzzle-waiting'),
  correct: (move) => t('puzzle-correct', { move }),
  wrong: (move) => t('puzzle-wrong', { move }),
  refutation: (line) => t('puzzle-refutation', { line }),
  gaveUp: t('puzzle-gave-up'),
  solution: (move, line) => t('puzzle-solution', { move, line }),
  change: (rating, diff) => t('puzzle-rating-change', { rating, diff }),
  notRated: t('puzzle-not-rated'),
  none: t('puzzles-none-yet'),
  failed: (error) => t('puzzles-failed', { error }),
};

document.getElementById('hdr').innerHTML = header();
const $ = (id) => document.getElementById(id);
const parts = location.pathname.split('/');
const set = decodeURIComponent(parts[2] || '');
let daily = parts[3] === 'daily';
const base = `/api/puzzles/${encodeURIComponent(set)}`;
let puzzle = null; // GET's answer: {id, fen, side, themes, rating, plays, position, played?, you?}
let busy = false;
let over = false;
let loadId = 0;
let shown = null; // the board shown (a position as /api/position gives it)

const board = new Board($('board'), {
  onMove: (uci) => play({ move: uci }),
  pockets: { top: $('pocket-top'), bottom: $('pocket-bottom') },
  hint: $('hint'),
  fit: $('board').closest('section'),
});

function show(pos, interactive, last) {
  shown = pos;
  board.set({ board: pos.board, pockets: pos.pockets, state: pos.state, state_lines: pos.state_lines, pocket_why: pos.pocket_why,
    pocket_name: pos.pocket_name, pocket_note: pos.pocket_note, fen: pos.fen, legal: pos.legal, turn: pos.turn, check: pos.check,
    last: last || null, interactive, variant: puzzle.variant });
}

function lastOf(uci) {
  if (!uci) return null;
  if (uci.includes('@')) { const sq = uci.slice(2, 4); return { from: sq, to: sq }; }
  return { from: uci.slice(0, 2), to: uci.slice(2, 4) };
}

/** Shows the boards of a line one after the other (the last one stays). */
function replayLine(boards, moves, my) {
  boards.forEach((b, i) => setTimeout(() => { if (my === loadId) show(b, false, lastOf(moves[i])); }, 500 + 700 * i));
}

function shownRating(r) { return `${r.rating}${r.provisional ? '?' : ''}`; }

function drawMeta() {
  const names = puzzle.themes.map((id) => `<span class="puzzle-theme" title="${esc(themeHelp(id))}">${esc(themeName(id))}</span>`).join(', ');
  $('meta').innerHTML = `${esc(WORDS.rating(puzzle.rating, puzzle.plays))}<br>${puzzle.themes.length ? WORDS.themes(names) : ''}`;
}

function drawYou(extra) {
  const you = $('you');
  if (!puzzle.you) {
    you.innerHTML = `<a href="/login">${esc(WORDS.logIn)}</a>`;
    return;
  }
  you.textContent = extra || WORDS.you(shownRating(puzzle.you));
}

function say(parts, kind) {
  const v = $('verdict');
  v.innerHTML = parts.filter(Boolean).map((p) => `<p class="flush">${p}</p>`).join('');
  v.className = 'learn-verdict' + (kind ? ' ' + kind : '');
}

async function load(url) {
  const my = ++loadId;
  busy = true;
  over = false;
  say([]);
  try {
    const p = await api(url);
    if (my !== loadId) return;
    puzzle = p;
  } catch (e) {
    if (my !== loadId) return;
    busy = false;
    $('task').textContent = e.status === 404 && /no puzzles/.test(e.message) ? WORDS.none : WORDS.failed(e.message);
    $('give-up').classList.add('hidden');
    $('next').classList.add('hidden');
    return;
  }
  busy = false;
  const name = setName(puzzle);
  $('title').textContent = daily ? WORDS.dailyTitle(name) : WORDS.setTitle(name);
  document.title = `Chimera — ${$('title').textContent}`;
  if (!daily) history.replaceState(null, '', `/puzzles/${encodeURIComponent(set)}#${puzzle.id}`);
  $('task').textContent = WORDS.task(puzzle.side);
  drawMeta();
  drawYou();
  if (puzzle.played) say([esc(WORDS.replay)]);
  $('give-up').classList.remove('hidden');
  $('retry').classList.add('hidden');
  $('next').classList.remove('hidden');
  board.setOrientation(puzzle.side);
  show(puzzle.position, true);
  screenReader.now()?.update(null, blindState());
}

async function play(body) {
  if (busy || over || !puzzle) return;
  busy = true;
  const my = loadId;
  if (body.move) say([esc(WORDS.waiting)]);
  let r;
  try {
    r = await api(`${base}/${encodeURIComponent(puzzle.id)}/round`, body);
  } catch (e) {
    busy = false;
    if (my !== loadId) return;
    say([esc(e.message)], 'bad');
    show(puzzle.position, true);
    return;
  }
  busy = false;
  if (my !== loadId) return;
  over = true;
  const san = (s) => `<b class="san">${esc(s)}</b>`;
  const line = (list) => list.map(san).join(' ');
  const solution = WORDS.solution(san(r.solution_san[0]), line(r.solution_san.slice(1)));
  if (r.win) {
    say([WORDS.correct(san(r.move_san)), solution], 'good');
    show(r.solution_boards[0], false, lastOf(r.solution[0]));
    replayLine(r.solution_boards.slice(1), r.solution.slice(1), my);
  } else if (r.move) {
    // The wrong move, then the engine's answer, on the board.
    const answer = r.refutation_san.length ? WORDS.refutation(line(r.refutation_san.slice(0, 3))) : '';
    say([WORDS.wrong(san(r.move_san)), answer, solution], 'bad');
    show(r.refutation_boards[0], false, lastOf(r.move));
    if (r.refutation.length) setTimeout(() => { if (my === loadId) show(r.refutation_boards[1], false, lastOf(r.refutation[0])); }, 700);
  } else {
    say([esc(WORDS.gaveUp), solution], 'bad');
    replayLine(r.solution_boards, r.solution, my);
  }
  puzzle.rating = r.puzzle.rating;
  puzzle.plays = r.puzzle.plays;
  drawMeta();
  if (puzzle.you && r.you) {
    puzzle.you = r.you.after;
    const diff = r.you.diff > 0 ? `+${r.you.diff}` : `${r.you.diff}`;
    drawYou(r.rated ? WORDS.change(shownRating(r.you.after), diff) : WORDS.notRated);
  } else if (puzzle.you) {
    drawYou(WORDS.notRated);
  }
  $('give-up').classList.add('hidden');
  $('retry').classList.remove('hidden');
  $('next').focus();
}

/** The rule options as /api/position takes them ({key: value}). */
function optionsOf(text) {
  const out = {};
  for (const kv of (text || '').split(',')) { const [k, v] = kv.split('='); if (k && v) out[k.trim()] = v.trim(); }
  return out;
}

/** The puzzle as the screen-reader mode reads a game's state: the board
 *  shown, the solver's legal moves until the round is played. */
function blindState() {
  const p = shown || {};
  return {
    variant: puzzle.variant, variant_name: puzzle.variant_name, options: optionsOf(puzzle.options), start_fen: puzzle.fen,
    history: [], ply: 0, board: p.board, fen: p.fen, pockets: p.pockets, state_lines: p.state_lines, pocket_name: p.pocket_name,
    legal: over ? {} : p.legal, turn: p.turn, status: 'active', mode: 'puzzle', seats: { w: true, b: true }, clock: null,
    engine_color: over ? p.turn : null,
  };
}

/** The screen-reader mode (the look's `blind` setting), as on the game
 *  page: the board read as text, a move typed and played as the round. */
const screenReader = screenReaderMode({
  state: () => (puzzle ? blindState() : { status: 'active', history: [], ply: 0, legal: {}, seats: {} }),
  you: () => (puzzle ? [puzzle.side] : []), live: () => true, clockLeft: () => 0,
  send: (msg) => { if (msg.t === 'move') play({ move: msg.uci }); },
});

function next() {
  if (daily) { daily = false; history.replaceState(null, '', `/puzzles/${encodeURIComponent(set)}`); }
  load(`${base}/next`);
}

$('next').addEventListener('click', next);
$('retry').addEventListener('click', () => { if (puzzle) load(`${base}/${encodeURIComponent(puzzle.id)}`); });
$('give-up').addEventListener('click', () => play({ give_up: true }));
const typed = () => { const m = $('typed').value.trim(); if (m) { $('typed').value = ''; play({ move: m }); } };
$('typed-go').addEventListener('click', typed);
$('typed').addEventListener('keydown', (e) => { if (e.key === 'Enter') typed(); });

const wanted = decodeURIComponent(location.hash.slice(1)) || new URLSearchParams(location.search).get('id');
if (wanted) { daily = false; load(`${base}/${encodeURIComponent(wanted)}`); } else if (daily) load(`${base}/daily`); else load(`${base}/next`);
