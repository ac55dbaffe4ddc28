// /learn: every variant with its lessons and how many steps are done.
import { api, header, esc } from './common.js';
import { loadProgress } from './learn-progress.js';

// The page's words (to move to the Fluent catalogs with the others).
const WORDS = {
  steps: (done, all) => `${done} of ${all} steps done`,
  start: 'Start',
  go_on: 'Go on',
  again: 'Play again',
  failed: 'The lessons could not be loaded: ',
};

document.getElementById('hdr').innerHTML = header();
const box = document.getElementById('variants');

async function main() {
  let data;
  try {
    data = await api('/api/learn');
  } catch (e) {
    box.textContent = WORDS.failed + e.message;
    box.setAttribute('aria-busy', 'false');
    return;
  }
  const draw = (done) => {
    box.innerHTML = data.variants.map((v) => {
      const lessons = v.lessons.map((l) => {
        const n = l.steps.filter((k) => done.has(k)).length;
        const word = n === 0 ? WORDS.start : n === l.steps.length ? WORDS.again : WORDS.go_on;
        return `<li class="learn-lesson-item${n === l.steps.length ? ' done' : ''}"><a href="/learn/${esc(v.id)}#${esc(l.id)}">${esc(l.title)}</a>
          <span class="learn-count">${WORDS.steps(n, l.steps.length)}</span> <a class="button learn-go" href="/learn/${esc(v.id)}#${esc(l.id)}">${word}<span class="visually-hidden">: ${esc(l.title)}</span></a></li>`;
      }).join('');
      return `<section class="panel learn-variant" id="v-${esc(v.id)}"><h2 class="flush"><a href="/learn/${esc(v.id)}">${esc(v.name)}</a></h2>
        <p class="learn-summary">${esc(v.summary)}</p><ul class="learn-lessons">${lessons}</ul></section>`;
    }).join('');
    box.setAttribute('aria-busy', 'false');
  };
  draw(new Set());
  draw(await loadProgress());
}
main();
