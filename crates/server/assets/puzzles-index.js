// /puzzles: every puzzle set with its size, its themes, today's puzzle and
// the player's puzzle rating in it (GET /api/puzzles).
import { api, header, esc, t } from './common.js';
import { setName, themeName, themeHelp } from './puzzle-words.js';

const WORDS = {
  count: (n) => t('puzzles-count', { n }),
  none: t('puzzles-none-yet'),
  daily: t('puzzles-daily'),
  solve: t('puzzles-solve'),
  rating: (rating) => t('puzzles-your-rating', { rating }),
  noRating: t('puzzles-no-rating'),
  themes: t('puzzles-themes'),
  failed: (error) => t('puzzles-failed', { error }),
};

document.getElementById('hdr').innerHTML = header();
const box = document.getElementById('sets');

function card(s, loggedIn) {
  const url = `/puzzles/${encodeURIComponent(s.name)}`;
  const name = esc(setName(s));
  const you = !loggedIn ? '' : `<p class="puzzles-you">${s.you ? esc(WORDS.rating(s.you.rating + (s.you.provisional ? '?' : ''))) : esc(WORDS.noRating)}</p>`;
  if (!s.count) {
    return `<section class="panel learn-variant" id="set-${esc(s.name)}"><h2 class="flush">${name}</h2><p class="learn-summary">${esc(WORDS.none)}</p></section>`;
  }
  const themes = Object.entries(s.themes).sort((a, b) => b[1] - a[1])
    .map(([id, n]) => `<li title="${esc(themeHelp(id))}">${esc(themeName(id))} <span class="learn-count">${n}</span></li>`).join('');
  return `<section class="panel learn-variant" id="set-${esc(s.name)}"><h2 class="flush"><a href="${url}">${name}</a></h2>
    <p class="learn-summary">${esc(WORDS.count(s.count))}</p>${you}
    <p class="controls"><a class="button primary" href="${url}">${esc(WORDS.solve)}<span class="visually-hidden">: ${name}</span></a>
    <a class="button" href="${url}/daily">${esc(WORDS.daily)}<span class="visually-hidden">: ${name}</span></a></p>
    <h3 class="flush puzzles-themes-title">${esc(WORDS.themes)}</h3><ul class="puzzles-themes">${themes}</ul></section>`;
}

async function main() {
  let data;
  try {
    data = await api('/api/puzzles');
  } catch (e) {
    box.textContent = WORDS.failed(e.message);
    box.setAttribute('aria-busy', 'false');
    return;
  }
  document.getElementById('login-note').classList.toggle('hidden', data.logged_in);
  box.innerHTML = data.sets.map((s) => card(s, data.logged_in)).join('');
  box.setAttribute('aria-busy', 'false');
}
main();
