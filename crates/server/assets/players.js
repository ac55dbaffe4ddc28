// The leaderboards: /players (each variant's top 10) and /players/{variant}
// (its top 100). Who is listed, and for how long, is the server's
// (window_days); the variants come from it too.
import { api, header, esc, profileUrl, t, variantName } from './common.js';

document.getElementById('hdr').innerHTML = header();
const $ = (id) => document.getElementById(id);

// The path after /players/, if any: one variant's board.
const rest = location.pathname.replace(/\/+$/, '').split('/').slice(2);
const variant = rest.length ? decodeURIComponent(rest[0]) : null;

/** Who is on a board, in one sentence. */
function whoText(days) {
  return typeof days === 'number' ? t('players-who-days', { n: days }) : t('players-who-months');
}

/** A rating for the table: a whole number (the text as the server gives it). */
function ratingText(r) {
  return typeof r === 'number' ? String(Math.round(r)) : esc(r ?? '');
}

/** One variant's board as a table; `all`: it is the whole board (no "All" link). */
function boardHtml(v, { all }) {
  const head = `h-${esc(v.id)}`;
  const rows = (v.players || []).map((p) => `<tr data-rank="${Number(p.rank) || ''}">` +
    `<td class="rank">${Number(p.rank) || ''}</td>` +
    `<th scope="row"><a class="lb-user" href="${profileUrl(p.username)}">${esc(p.username)}</a></th>` +
    `<td class="num lb-rating">${ratingText(p.rating)}</td><td class="num">${Number(p.games) || 0}</td></tr>`);
  const empty = `<tr><td colspan="4" class="lb-empty">${esc(t('players-empty'))} <a href="/?variant=${encodeURIComponent(v.id)}&amp;mode=seek&amp;rated=1">${esc(t('players-play-rated'))}</a>.</td></tr>`;
  const more = all ? '' : `<a class="lb-all" href="/players/${encodeURIComponent(v.id)}" aria-label="${esc(t('players-all-label', { variant: variantName(v.name) }))}">${esc(t('players-all'))}</a>`;
  return `<section class="panel lb" data-variant="${esc(v.id)}" aria-labelledby="${head}">` +
    `<div class="lb-head"><h2 class="flush lb-title" id="${head}">${esc(variantName(v.name))}</h2>${more}</div>` +
    `<div class="table-wrap"><table class="games leaderboard" aria-labelledby="${head}">` +
    `<thead><tr><th scope="col" class="rank">#</th><th scope="col">${esc(t('player'))}</th><th scope="col" class="num">${esc(t('rating'))}</th><th scope="col" class="num">${esc(t('games'))}</th></tr></thead>` +
    `<tbody>${rows.join('') || empty}</tbody></table></div></section>`;
}

async function main() {
  const meta = await api('/api/meta').catch(() => null);
  if (variant === null) {
    const r = await api('/api/players');
    $('players-who').textContent = whoText(r.window_days);
    $('boards').innerHTML = (r.variants || []).map((v) => boardHtml(v, { all: false })).join('');
    return;
  }
  // One variant's top 100, with links to the others.
  if (meta) {
    $('players-tabs').innerHTML = `<a class="button" href="/players">${esc(t('players-all-variants'))}</a> ` + meta.variants.map((k) =>
      `<a class="button${k.id === variant ? ' current" aria-current="page' : ''}" href="/players/${encodeURIComponent(k.id)}">${esc(variantName(k.name))}</a>`).join(' ');
    $('players-tabs').classList.remove('hidden');
  }
  let r;
  try {
    r = await api('/api/players/' + encodeURIComponent(variant));
  } catch (e) {
    if (e.status !== 404) throw e;
    document.title = t('novariant-title');
    $('players-title').textContent = t('novariant-heading');
    $('boards').innerHTML = `<section class="panel nogame" id="novariant"><p>${esc(t('players-no-variant', { variant }))}</p>` +
      `<p><a href="/players">${esc(t('players-see-all'))}</a>.</p></section>`;
    return;
  }
  document.title = t('players-title-of', { variant: variantName(r.name) });
  $('players-title').textContent = t('players-top', { variant: variantName(r.name) });
  $('players-who').textContent = whoText(r.window_days);
  $('boards').classList.add('single');
  $('boards').innerHTML = boardHtml(r, { all: true });
}

main().catch((e) => {
  $('players-error').textContent = t('players-error', { error: e.message });
}).finally(() => $('players-main').setAttribute('aria-busy', 'false'));
