// A player's page (/@/{name}): since when, a card per variant played rated
// (rating, results, the rating's history as a graph) and the latest games.
import { api, header, esc, account, profileUrl, fmtDate, toDate, playingRows, toast, saveToken, titleMark, t, lang, variantName } from './common.js';

document.getElementById('hdr').innerHTML = header();
const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';

const name = decodeURIComponent(location.pathname.replace(/^\/@\//, '').replace(/\/+$/, ''));

function noSuchPlayer() {
  document.title = t('noplayer-title');
  for (const id of ['ratings-section', 'games-section', 'profile-you']) $(id).remove();
  const head = $('profile-head');
  head.id = 'noplayer';
  head.classList.add('nogame');
  $('profile-name').textContent = t('noplayer-heading');
  $('profile-since').textContent = name ? t('noplayer-text', { name }) : t('noplayer-none');
  const p = document.createElement('p');
  const a = document.createElement('a');
  a.href = '/players';
  a.textContent = t('noplayer-leaderboards');
  p.append(a, '.');
  head.append(p);
}

/** One finished game's outcome for the player whose page this is. */
function outcome(g, me) {
  const lower = (s) => (s || '').toLowerCase();
  const side = lower(g.white) === me ? 'w' : lower(g.black) === me ? 'b' : null;
  if (!side || !g.result || g.result === '*') return '';
  if (g.result === '1/2-1/2') return `<span class="outcome draw">${esc(t('profile-outcome-draw'))}</span>`;
  const won = (g.result === '1-0') === (side === 'w');
  return won ? `<span class="outcome won">${esc(t('profile-outcome-won'))}</span>` : `<span class="outcome lost">${esc(t('profile-outcome-lost'))}</span>`;
}

function userCell(u, title) {
  return u ? `${titleMark(title)}<a href="${profileUrl(u)}">${esc(u)}</a>` : `<span class="anon">${esc(t('anonymous'))}</span>`;
}

function gamesHtml(games, me) {
  return games.map((g) => `<tr data-game="${esc(g.id)}">` +
    `<td><a href="/game/${encodeURIComponent(g.id)}">${esc(fmtDate(g.created_at, 'short'))}</a></td>` +
    `<td class="pg-variant">${esc(variantName(g.variant_name || g.variant))}</td><td>${userCell(g.white, g.white_title)}</td><td>${userCell(g.black, g.black_title)}</td>` +
    `<td>${g.result && g.result !== '*' ? esc(g.result) + ' ' + outcome(g, me) : `<span class="tag active">${esc(t('playing'))}</span>`}</td>` +
    `<td>${g.rated ? `<span class="tag rated">${esc(t('rated'))}</span>` : `<span class="tag casual">${esc(t('casual'))}</span>`}</td></tr>`).join('');
}

// ----- The rating graph -----

function svg(tag, attrs, parent) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

/** A round step for about `n` ticks over `range` rating points. */
function niceStep(range, n) {
  const raw = range / n;
  for (const s of [5, 10, 20, 25, 50, 100, 200, 250, 500, 1000]) if (s >= raw) return s;
  return Math.ceil(raw / 1000) * 1000;
}

/** Draws the history [{at, rating}] into `box` as an SVG line graph at the
 *  box's own width (so its text keeps its size on a phone). */
function drawGraph(box, history, label) {
  const points = history.map((h) => ({ at: Number(h.at), rating: Number(h.rating) }))
    .filter((p) => Number.isFinite(p.at) && Number.isFinite(p.rating)).sort((a, b) => a.at - b.at);
  box.textContent = '';
  if (!points.length) {
    const p = document.createElement('p');
    p.className = 'form-note';
    p.textContent = t('profile-no-history');
    box.append(p);
    return;
  }
  const W = Math.max(240, Math.round(box.clientWidth || 320));
  const H = 170;
  const m = { l: 42, r: 12, t: 10, b: 24 };
  const ratings = points.map((p) => p.rating);
  let lo = Math.min(...ratings);
  let hi = Math.max(...ratings);
  // At least 40 points high, around the ratings (one game: its rating in the middle).
  if (hi - lo < 40) { const mid = (hi + lo) / 2; lo = mid - 20; hi = mid + 20; }
  const step = niceStep(hi - lo, 4);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  if (hi === lo) { lo -= step; hi += step; }
  const t0 = points[0].at;
  const t1 = points[points.length - 1].at;
  const x = (p, i) => (t1 > t0 ? m.l + (p.at - t0) / (t1 - t0) * (W - m.l - m.r)
    : points.length > 1 ? m.l + i / (points.length - 1) * (W - m.l - m.r) : (m.l + W - m.r) / 2);
  const y = (r) => m.t + (hi - r) / (hi - lo) * (H - m.t - m.b);

  const first = points[0].rating;
  const last = points[points.length - 1].rating;
  const g = svg('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: 'rating-graph', role: 'img', 'data-points': points.length });
  const title = svg('title', {}, g);
  title.textContent = t('profile-graph-title', { variant: label, n: points.length, from: Math.round(first), to: Math.round(last) });
  // Horizontal grid lines with the ratings on the left.
  for (let r = lo; r <= hi; r += step) {
    svg('line', { x1: m.l, x2: W - m.r, y1: y(r), y2: y(r), class: r === lo ? 'axis' : 'grid' }, g);
    const tx = svg('text', { x: m.l - 6, y: y(r) + 4, 'text-anchor': 'end', class: 'axis-label' }, g);
    tx.textContent = String(r);
  }
  svg('line', { x1: m.l, x2: m.l, y1: m.t, y2: H - m.b, class: 'axis' }, g);
  // Dates below: the first, the last and (room allowing) the middle one.
  const span = t1 - t0;
  const dateOpts = span > 300 * 86400000 ? { month: 'short', year: 'numeric' } : { month: 'short', day: 'numeric' };
  const dateText = (x) => { const d = toDate(x); return d ? d.toLocaleDateString(lang(), dateOpts) : ''; };
  const xl = t1 > t0 ? [[t0, m.l, 'start']] : [[t0, (m.l + W - m.r) / 2, 'middle']];
  if (t1 > t0) {
    if (W >= 300) xl.push([(t0 + t1) / 2, (m.l + W - m.r) / 2, 'middle']);
    xl.push([t1, W - m.r, 'end']);
  }
  for (const [t, px, anchor] of xl) {
    const e = svg('text', { x: px, y: H - 6, 'text-anchor': anchor, class: 'axis-label' }, g);
    e.textContent = dateText(t);
  }
  // The line, and a dot per game (the last one always).
  const d = points.map((p, i) => `${i ? 'L' : 'M'}${x(p, i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ');
  if (points.length > 1) svg('path', { d, class: 'line' }, g);
  points.forEach((p, i) => {
    const lastOne = i === points.length - 1;
    if (points.length > 60 && !lastOne) return;
    const c = svg('circle', { cx: x(p, i).toFixed(1), cy: y(p.rating).toFixed(1), r: lastOne ? 4 : 2.5, class: lastOne ? 'pt last' : 'pt' }, g);
    const tt = svg('title', {}, c);
    tt.textContent = `${fmtDate(p.at, 'short')}: ${Math.round(p.rating)}`;
  });
  box.append(g);
}

/** Redraws each graph when its box changes width (a turned phone). */
const graphs = new Map();
const resized = typeof ResizeObserver === 'function' ? new ResizeObserver((entries) => {
  for (const e of entries) {
    const k = graphs.get(e.target);
    if (!k) continue;
    const w = Math.round(e.contentRect.width);
    if (Math.abs(w - k.width) < 3) continue;
    k.width = w;
    drawGraph(e.target, k.history, k.label);
  }
}) : null;

function card(r) {
  const c = document.createElement('article');
  c.className = 'panel rating-card';
  c.dataset.variant = r.variant;
  const headId = 'rc-' + r.variant;
  c.setAttribute('aria-labelledby', headId);
  const text = String(r.rating ?? '');
  const shown = r.provisional && !text.endsWith('?') ? text + '?' : text;
  c.innerHTML = `<h3 class="flush" id="${esc(headId)}"><a href="/players/${encodeURIComponent(r.variant)}">${esc(r.name || r.variant)}</a></h3>` +
    `<p class="rating-line"><span class="rating-value${r.provisional ? ' provisional' : ''}">${esc(shown)}</span>` +
    (r.provisional ? ` <span class="provisional-note" title="${esc(t('provisional-title'))}">${esc(t('profile-provisional'))}</span>` : '') + '</p>' +
    (r.lower != null ? `<p class="form-note bot-interval">${esc(t('profile-interval', { lo: Number(r.lower), hi: Number(r.upper), n: Number(r.calibration_games) || 0 }))}</p>` : '') +
    '<dl class="wdl">' +
    `<div><dt>${esc(t('games'))}</dt><dd class="wdl-games">${Number(r.games) || 0}</dd></div>` +
    `<div><dt>${esc(t('profile-wins'))}</dt><dd class="wdl-wins">${Number(r.wins) || 0}</dd></div>` +
    `<div><dt>${esc(t('profile-draws'))}</dt><dd class="wdl-draws">${Number(r.draws) || 0}</dd></div>` +
    `<div><dt>${esc(t('profile-losses'))}</dt><dd class="wdl-losses">${Number(r.losses) || 0}</dd></div></dl>` +
    '<div class="rating-graph-box"></div>';
  return c;
}

// ----- The archive search: the form above the games table -----
//
// The search lives in the page's query string with the API's own fields
// (variant, opponent, result, rated, since, until: ms since the epoch, page),
// so a search can be linked, survives a reload, and goes to the API as it is.

const FIELDS = ['variant', 'opponent', 'result', 'rated', 'since', 'until'];
const PAGE_SIZE = 50;
let me = name.toLowerCase();
/** The search shown: {search: {field: text}, page}, and what the last answer said. */
let state = { search: {}, page: 0 };
let more = false;
let loading = false;
let seq = 0;

/** Midnight (local time) starting the day `ymd` (YYYY-MM-DD) plus `plus` days, in ms; NaN if no date. */
function dayStart(ymd, plus) {
  const m = /^(\d{4,})-(\d{2})-(\d{2})$/.exec(ymd || '');
  if (!m) return NaN;
  const d = new Date(2000, 0, 1);
  d.setFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + plus);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** The local date (YYYY-MM-DD) holding the moment `ms`, or ''. */
function ymdOf(ms) {
  if (!/^-?\d+$/.test(String(ms))) return '';
  const d = new Date(Number(ms));
  if (Number.isNaN(d.getTime())) return '';
  const p = (n, w) => String(n).padStart(w, '0');
  return `${p(d.getFullYear(), 4)}-${p(d.getMonth() + 1, 2)}-${p(d.getDate(), 2)}`;
}

/** The search in the page's address. A date written YYYY-MM-DD is taken
 *  too (since: that day's start, until: the next day's start). */
function searchFromUrl() {
  const q = new URLSearchParams(location.search);
  const search = {};
  for (const f of FIELDS) {
    let v = (q.get(f) || '').trim();
    if ((f === 'since' || f === 'until') && /^\d{4,}-\d{2}-\d{2}$/.test(v)) {
      const t = dayStart(v, f === 'until' ? 1 : 0);
      if (Number.isFinite(t)) v = String(t);
    }
    if (v) search[f] = v;
  }
  const page = (q.get('page') || '').trim();
  return { search, page: /^\d+$/.test(page) ? Math.min(Number(page), 10000) : 0 };
}

/** The query string ('' or 'a=b&…') of a search, with its page when not the first. */
function queryOf(search, page) {
  const q = new URLSearchParams();
  for (const f of FIELDS) if (search[f]) q.set(f, search[f]);
  if (page > 0) q.set('page', String(page));
  return q.toString();
}

function filtered(search) { return FIELDS.some((f) => search[f]); }

/** Sets a select to `value`, adding it as a choice when it is none of them
 *  (a linked search naming what the list lacks: the server says what is wrong). */
function setSelect(sel, value) {
  if (value && ![...sel.options].some((o) => o.value === value)) {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = value;
    sel.append(o);
  }
  sel.value = value || '';
}

function fillForm(search) {
  setSelect($('archive-variant'), search.variant);
  $('archive-opponent').value = search.opponent || '';
  setSelect($('archive-result'), search.result);
  setSelect($('archive-rated'), search.rated);
  $('archive-since').value = search.since ? ymdOf(search.since) : '';
  $('archive-until').value = search.until ? ymdOf(Number(search.until) - 1) : '';
}

/** The search the form holds, or {error} saying what is wrong with it. */
function readForm() {
  const search = {};
  const variant = $('archive-variant').value;
  const opponent = $('archive-opponent').value.trim();
  const result = $('archive-result').value;
  const rated = $('archive-rated').value;
  if (variant) search.variant = variant;
  if (opponent) search.opponent = opponent;
  if (result) search.result = result;
  if (rated) search.rated = rated;
  for (const [id, f, plus, label] of [['archive-since', 'since', 0, t('profile-from')], ['archive-until', 'until', 1, t('profile-to')]]) {
    const el = $(id);
    // A date being typed that is not yet whole reads as '' but is invalid.
    if (!el.value && el.validity && el.validity.badInput) return { error: t('profile-date-partial', { field: label }), field: el };
    if (!el.value) continue;
    const ms = dayStart(el.value, plus);
    if (!Number.isFinite(ms)) return { error: t('profile-date-bad', { field: label }), field: el };
    search[f] = String(ms);
  }
  if (search.since && search.until && Number(search.since) >= Number(search.until)) {
    return { error: t('profile-date-order'), field: $('archive-since') };
  }
  return { search };
}

/** Puts a search in the page's address (a new history entry when `push`). */
function setUrl(push) {
  const qs = queryOf(state.search, state.page);
  const url = location.pathname + (qs ? '?' + qs : '') + location.hash;
  if (url === location.pathname + location.search + location.hash) return;
  history[push ? 'pushState' : 'replaceState'](null, '', url);
}

function apiUrl(search, page) {
  const qs = queryOf(search, page);
  return '/api/@/' + encodeURIComponent(name) + (qs ? '?' + qs : '');
}

/** The download link, the pager and the page line for the search shown. */
function showPager(count) {
  const qs = queryOf(state.search, 0);
  $('archive-pgn').href = '/api/@/' + encodeURIComponent(name) + '/games.pgn' + (qs ? '?' + qs : '');
  $('archive-newer').disabled = state.page <= 0;
  $('archive-older').disabled = !more;
  const first = state.page * PAGE_SIZE;
  $('archive-page').textContent = t('profile-page', { n: state.page + 1 }) +
    (count > 0 ? ' · ' + t('profile-page-games', { from: first + 1, to: first + count }) : ' · ' + t('profile-page-none'));
}

function showGames(games) {
  const search = state.search;
  $('games-title').textContent = filtered(search) ? t('profile-found') : t('profile-latest');
  const empty = state.page > 0 ? t('profile-none-page') : filtered(search) ? t('profile-none-match') : t('profile-none-yet');
  $('profile-games-body').innerHTML = gamesHtml(games, me) || `<tr><td colspan="6">${esc(empty)}</td></tr>`;
  showPager(games.length);
}

/** The games table with no search run (the search has an error). */
function showNoSearch() {
  more = false;
  $('games-title').textContent = t('profile-found');
  $('profile-games-body').innerHTML = `<tr><td colspan="6">${esc(t('profile-search-failed'))}</td></tr>`;
  showPager(0);
  $('archive-page').textContent = '';
}

/** Runs the search in `state` and shows its page of games. */
async function runSearch() {
  const mine = ++seq;
  loading = true;
  const before = document.activeElement;
  $('games-section').setAttribute('aria-busy', 'true');
  showError($('archive-error'), '');
  try {
    const p = await api(apiUrl(state.search, state.page));
    if (mine !== seq) return;
    more = !!p.more;
    showGames(p.games || []);
  } catch (e) {
    if (mine !== seq) return;
    showNoSearch();
    showError($('archive-error'), e.status === 400 ? t('profile-search-wrong', { error: e.message }) : t('profile-games-error', { error: e.message }));
  } finally {
    if (mine === seq) {
      loading = false;
      $('games-section').setAttribute('aria-busy', 'false');
      // A pager button that was pressed and is now off hands its focus on.
      if (before && before.disabled && (before.id === 'archive-newer' || before.id === 'archive-older')) {
        const other = $(before.id === 'archive-newer' ? 'archive-older' : 'archive-newer');
        (other.disabled ? $('archive-page') : other).focus();
      }
    }
  }
}

/** A form's error line (role="alert"): emptied first, so that the same
 *  message twice is read out again. */
function showError(el, msg) {
  el.textContent = '';
  if (msg) setTimeout(() => { el.textContent = msg; }, 30);
}

function wireArchive() {
  $('archive-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const r = readForm();
    if (r.error) {
      showError($('archive-error'), r.error);
      r.field.focus();
      return;
    }
    state = { search: r.search, page: 0 };
    setUrl(true);
    runSearch();
  });
  $('archive-newer').addEventListener('click', () => {
    if (loading || state.page <= 0) return;
    state = { search: state.search, page: state.page - 1 };
    setUrl(true);
    runSearch();
  });
  $('archive-older').addEventListener('click', () => {
    if (loading || !more) return;
    state = { search: state.search, page: state.page + 1 };
    setUrl(true);
    runSearch();
  });
  // Back and forward through searches.
  window.addEventListener('popstate', () => {
    state = searchFromUrl();
    fillForm(state.search);
    runSearch();
  });
}

async function main() {
  if (!name) { noSuchPlayer(); return; }
  const metaCall = api('/api/meta').catch(() => null);
  state = searchFromUrl();
  let p;
  let searchError = null;
  try {
    p = await api(apiUrl(state.search, state.page));
  } catch (e) {
    if (e.status === 404) { noSuchPlayer(); return; }
    if (e.status !== 400 || !(filtered(state.search) || state.page > 0)) throw e;
    // A linked search with an error: the page without it, the error said.
    searchError = e;
    p = await api(apiUrl({}, 0));
  }
  const who = p.username || name;
  me = who.toLowerCase();
  document.title = `Chimera — ${who}`;
  $('profile-name').innerHTML = titleMark(p.title) + esc(who);
  $('profile-since').textContent = p.created_at ? t('profile-since', { date: fmtDate(p.created_at) }) : '';
  if (p.bot) {
    $('profile-since').innerHTML = `${esc(t('profile-bot', { n: Number(p.bot.level) }))} <a href="/docs/bots.md">${esc(t('profile-bot-link'))}</a>${esc(t('profile-bot-after'))}`;
  }
  account().then((a) => {
    if (a && a.username.toLowerCase() !== me) challengeForm(who);
    if (!a || a.username.toLowerCase() !== me) return;
    $('profile-you').classList.remove('hidden');
    // One's own profile lists one's games in progress, one's turn first.
    api('/api/account/playing').then((games) => {
      $('playing').innerHTML = playingRows(games);
      $('playing-section').classList.toggle('hidden', games.length === 0);
    }, () => {});
  }, () => {});

  const ratings = p.ratings || [];
  $('ratings-section').classList.remove('hidden');
  $('ratings-empty').classList.toggle('hidden', ratings.length > 0);
  for (const r of ratings) {
    const c = card(r);
    $('ratings').append(c);
    const box = c.querySelector('.rating-graph-box');
    const history = r.history || [];
    const label = `${who} in ${r.name || r.variant}`;
    drawGraph(box, history, label);
    graphs.set(box, { width: Math.round(box.clientWidth), history, label });
    if (resized) resized.observe(box);
  }

  const meta = await metaCall;
  const sel = $('archive-variant');
  for (const v of (meta && meta.variants) || []) {
    const o = document.createElement('option');
    o.value = v.id;
    o.textContent = v.name || v.id;
    sel.append(o);
  }
  fillForm(state.search);
  wireArchive();
  $('games-section').classList.remove('hidden');
  if (searchError) {
    showNoSearch();
    showError($('archive-error'), t('profile-search-wrong', { error: searchError.message }));
  } else {
    more = !!p.more;
    showGames(p.games || []);
  }
}

main().catch((e) => {
  $('profile-error').textContent = t('profile-error', { error: e.message });
}).finally(() => $('profile-main').setAttribute('aria-busy', 'false'));

/** The form that challenges this player (a logged-in visitor's). When the
 *  challenge is accepted, the header's notifications open the game. */
async function challengeForm(who) {
  const meta = await api('/api/meta');
  $('challenge-name').textContent = who;
  $('challenge-variant').innerHTML = meta.variants.map((v) => `<option value="${esc(v.id)}">${esc(variantName(v.name))}</option>`).join('');
  $('challenge-section').classList.remove('hidden');
  $('challenge-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const body = { variant: $('challenge-variant').value, color: $('challenge-color').value, rated: $('challenge-rated').checked };
    const time = $('challenge-time').value;
    if (time.startsWith('days:')) body.days = parseInt(time.slice(5), 10);
    else if (time !== 'none') {
      const [m, i] = time.split('+');
      body.clock = { minutes: parseFloat(m), increment: parseFloat(i) };
    }
    const status = $('challenge-status');
    try {
      const c = await api(`/api/challenge/${encodeURIComponent(who)}`, body);
      // A house bot answers at once: the game, or why not.
      if (c.game) { saveToken(c.game.id, c.game.token, c.game.colors); location.href = c.game.url; return; }
      if (c.status === 'declined') { status.textContent = c.declineReason === 'later' ? t('profile-declined-busy', { name: who }) : c.declineReason === 'timeControl' ? t('profile-declined-clock', { name: who }) : t('profile-declined', { name: who, reason: c.declineReason }); return; }
      status.innerHTML = `${esc(t('profile-challenge-sent', { name: who }))} <button type="button" id="challenge-cancel">${esc(t('profile-cancel-it'))}</button>`;
      $('challenge-cancel').addEventListener('click', async () => {
        try { await api(`/api/challenge/${encodeURIComponent(c.id)}/cancel`, {}); status.textContent = t('profile-challenge-cancelled'); } catch (err) { toast(err.message); }
      });
    } catch (err) { status.textContent = err.message; }
  });
}
