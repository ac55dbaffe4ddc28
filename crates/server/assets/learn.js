// /learn/{variant}: the lesson player. The board is the game's own
// (board.js); the legal moves and every verdict come from the server, which
// asks the rules (POST /api/learn/{variant}/{lesson}/{n}). Progress:
// learn-progress.js.
import { Board } from './board.js';
import { api, toast, header, esc, t, lang, variantName } from './common.js';
import { loadProgress, markDone } from './learn-progress.js';

// The page's words: the catalogs' learn-* messages (assets/i18n/*.ftl). The
// lessons' own texts (tasks, hints, explanations) come from the server in
// English, like the rules pages: marked lang="en".
const WORDS = {
  title: (name) => t('learn-variant-title', { name: variantName(name) }),
  step: (n, all) => t('learn-step', { n, all }),
  your_move: (side) => t('learn-to-play', { side }),
  correct: t('learn-correct'),
  wrong: t('learn-wrong'),
  reply: (san) => t('learn-reply', { san }),
  lesson_done: t('learn-lesson-done'),
  all_done: t('learn-all-done'),
  next_lesson: t('learn-next-lesson'),
  next_step: t('learn-next-step'),
  hint: t('learn-hint-is'),
  step_label: (n, task, done) => (done ? t('learn-step-label-done', { n, task }) : t('learn-step-label', { n, task })),
};

document.getElementById('hdr').innerHTML = header();
const $ = (id) => document.getElementById(id);
const variant = decodeURIComponent(location.pathname.split('/')[2] || '');
let data = null; // {variant, name, lessons: [{id, title, intro, steps: [...]}]}
let done = new Set();
let li = 0; // lesson index
let si = 0; // step index
let moves = []; // the step's moves so far (answers and replies)
let busy = false;
let loadId = 0;

const board = new Board($('board'), {
  onMove: (uci) => answer(uci),
  pockets: { top: $('pocket-top'), bottom: $('pocket-bottom') },
  hint: $('hint'),
  fit: $('board').closest('section'),
});

const lesson = () => data.lessons[li];
const step = () => lesson().steps[si];
const url = (s) => `/api/learn/${encodeURIComponent(variant)}/${encodeURIComponent(lesson().id)}/${s.n}`;

function show(pos, interactive, last) {
  board.set({ board: pos.board, pockets: pos.pockets, state: pos.state, state_lines: pos.state_lines, pocket_why: pos.pocket_why,
    pocket_name: pos.pocket_name, pocket_note: pos.pocket_note, fen: pos.fen, legal: pos.legal, turn: pos.turn, check: pos.check,
    last: last || null, interactive, variant });
}

function lastOf(uci) {
  if (!uci) return null;
  if (uci.includes('@')) { const sq = uci.slice(2, 4); return { from: sq, to: sq }; }
  return { from: uci.slice(0, 2), to: uci.slice(2, 4) };
}

/** The verdict: `text` in the reader's language, then `en` (the lesson's
 *  own words, English) marked lang="en"; `after` (the reader's) follows. */
function say(text, kind, en, after) {
  const v = $('verdict');
  v.textContent = text;
  if (en) {
    const span = document.createElement('span');
    span.lang = 'en';
    span.textContent = en;
    v.append(span);
  }
  if (after) v.append(after);
  v.className = 'learn-verdict' + (kind ? ' ' + kind : '');
}

async function openStep(l, s) {
  li = l; si = s; moves = [];
  const my = ++loadId;
  const st = step();
  location.replace(`#${lesson().id}/${st.n}`);
  $('lesson-title').textContent = lesson().title;
  $('intro').textContent = lesson().intro;
  $('task').innerHTML = `<b>${WORDS.step(st.n, lesson().steps.length)}.</b> <span lang="en">${esc(st.task)}</span> <span class="learn-side">${WORDS.your_move(st.side)}</span>`;
  say('');
  $('next').classList.add('hidden');
  board.setOrientation(st.side);
  drawSteps();
  try {
    const r = await api(url(st), { moves: [] });
    if (my !== loadId) return;
    show(r.position, true);
  } catch (e) { toast(e.message); }
}

async function answer(uci) {
  if (busy || !data) return;
  busy = true;
  const st = step();
  const my = loadId;
  try {
    const v = await api(url(st), { moves, answer: uci });
    if (my !== loadId) return;
    if (v.ok) {
      moves.push(v.uci);
      if (v.reply) moves.push(v.reply);
      show(v.position, !v.done, lastOf(v.reply || v.uci));
      if (v.done) {
        await markDone(done, st.key);
        const lastStep = si + 1 === lesson().steps.length;
        const lastLesson = li + 1 === data.lessons.length;
        say(WORDS.correct + ' ', 'good', v.explanation, lastStep ? ' ' + WORDS.lesson_done + (lastLesson ? ' ' + WORDS.all_done : '') : '');
        const nb = $('next');
        nb.textContent = lastStep ? WORDS.next_lesson : WORDS.next_step;
        nb.classList.toggle('hidden', lastStep && lastLesson);
        drawSteps();
      } else {
        say(WORDS.correct + ' ' + (v.reply_san ? WORDS.reply(v.reply_san) + ' ' : ''), 'good', v.explanation);
      }
    } else {
      show(v.position, true);
      say(WORDS.wrong + ' ', 'bad', v.explanation);
    }
  } catch (e) {
    toast(e.message);
  } finally {
    busy = false;
  }
}

function next() {
  if (si + 1 < lesson().steps.length) openStep(li, si + 1);
  else if (li + 1 < data.lessons.length) openStep(li + 1, 0);
}

function drawSteps() {
  $('steps').innerHTML = data.lessons.map((l, i) => {
    const items = l.steps.map((s, j) => {
      const isDone = done.has(s.key);
      const cur = i === li && j === si;
      return `<button class="learn-step${isDone ? ' done' : ''}${cur ? ' current' : ''}" data-l="${i}" data-s="${j}"
        ${cur ? 'aria-current="step"' : ''} lang="en" title="${esc(s.task)}"><span aria-hidden="true">${isDone ? '✓' : s.n}</span><span class="visually-hidden" lang="${lang()}">${WORDS.step_label(s.n, `<span lang="en">${esc(s.task)}</span>`, isDone)}</span></button>`;
    }).join('');
    return `<li><span class="learn-step-lesson" lang="en">${esc(l.title)}</span> <span class="learn-step-buttons">${items}</span></li>`;
  }).join('');
}

$('steps').addEventListener('click', (e) => {
  const b = e.target.closest('button[data-l]');
  if (b) openStep(+b.dataset.l, +b.dataset.s);
});
$('next').addEventListener('click', next);
$('retry').addEventListener('click', () => openStep(li, si));
$('hint-btn').addEventListener('click', () => say(WORDS.hint + ' ', '', step().hint));
const typed = () => { const t = $('typed').value.trim(); if (t) { $('typed').value = ''; answer(t); } };
$('typed-go').addEventListener('click', typed);
$('typed').addEventListener('keydown', (e) => { if (e.key === 'Enter') typed(); });

async function main() {
  try {
    data = await api('/api/learn/' + encodeURIComponent(variant));
  } catch (e) {
    say(e.message, 'bad');
    return;
  }
  $('title').textContent = WORDS.title(data.name);
  document.title = `Chimera — ${WORDS.title(data.name)}`;
  done = await loadProgress();
  // The lesson in the address (#lesson or #lesson/n), else the first step not done.
  const [lid, n] = decodeURIComponent(location.hash.slice(1)).split('/');
  let l = data.lessons.findIndex((x) => x.id === lid);
  let s = l >= 0 && n ? Math.max(0, Math.min(+n - 1, data.lessons[l].steps.length - 1)) : 0;
  if (l < 0) {
    l = Math.max(0, data.lessons.findIndex((x) => x.steps.some((st) => !done.has(st.key))));
    s = 0;
  }
  if (l >= 0 && !n) s = Math.max(0, data.lessons[l].steps.findIndex((st) => !done.has(st.key)));
  openStep(l, s);
}
main();
