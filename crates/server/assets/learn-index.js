// /learn: every variant with its lessons and how many steps are done.
import { api, header, esc, t, variantName, variantSummary } from './common.js';
import { loadProgress } from './learn-progress.js';

// The page's words: the catalogs' learn-* messages (assets/i18n/*.ftl); the
// lessons' titles come from the server in English, like the rules pages.
const WORDS = {
  steps: (done, all) => t('learn-steps-done', { done, all }),
  start: t('learn-start'),
  go_on: t('learn-go-on'),
  again: t('learn-again'),
  failed: (error) => t('learn-failed', { error }),
};

document.getElementById('hdr').innerHTML = header();
const box = document.getElementById('variants');

async function main() {
  let data;
  try {
    data = await api('/api/learn');
  } catch (e) {
    box.textContent = WORDS.failed(e.message);
    box.setAttribute('aria-busy', 'false');
    return;
  }
  const draw = (done) => {
    box.innerHTML = data.variants.map((v) => {
      const lessons = v.lessons.map((l) => {
        const n = l.steps.filter((k) => done.has(k)).length;
        const word = n === 0 ? WORDS.start : n === l.steps.length ? WORDS.again : WORDS.go_on;
        return `<li class="learn-lesson-item${n === l.steps.length ? ' done' : ''}"><a href="/learn/${esc(v.id)}#${esc(l.id)}" lang="en">${esc(l.title)}</a>
          <span class="learn-count">${WORDS.steps(n, l.steps.length)}</span> <a class="button learn-go" href="/learn/${esc(v.id)}#${esc(l.id)}">${word}<span class="visually-hidden">: <span lang="en">${esc(l.title)}</span></span></a></li>`;
      }).join('');
      return `<section class="panel learn-variant" id="v-${esc(v.id)}"><h2 class="flush"><a href="/learn/${esc(v.id)}">${esc(variantName(v.name))}</a></h2>
        <p class="learn-summary">${esc(variantSummary(v))}</p><ul class="learn-lessons">${lessons}</ul></section>`;
    }).join('');
    box.setAttribute('aria-busy', 'false');
  };
  draw(new Set());
  draw(await loadProgress());
}
main();
