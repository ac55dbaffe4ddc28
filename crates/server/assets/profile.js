// A player's page (/@/{name}): since when, a card per variant played rated
// (rating, results, the rating's history as a graph) and the latest games.
import { api, header, esc, account, profileUrl, fmtDate, toDate } from './common.js';

document.getElementById('hdr').innerHTML = header();
const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';

const name = decodeURIComponent(location.pathname.replace(/^\/@\//, '').replace(/\/+$/, ''));

function noSuchPlayer() {
  document.title = 'Chimera — no such player';
  for (const id of ['ratings-section', 'games-section', 'profile-you']) $(id).remove();
  const head = $('profile-head');
  head.id = 'noplayer';
  head.classList.add('nogame');
  $('profile-name').textContent = 'No such player';
  $('profile-since').textContent = name ? `There is no player named “${name}”: the name may be mistyped, or the account deleted.` : 'No player was named.';
  const p = document.createElement('p');
  const a = document.createElement('a');
  a.href = '/players';
  a.textContent = 'See the leaderboards';
  p.append(a, '.');
  head.append(p);
}

/** One finished game's outcome for the player whose page this is. */
function outcome(g, me) {
  const lower = (s) => (s || '').toLowerCase();
  const side = lower(g.white) === me ? 'w' : lower(g.black) === me ? 'b' : null;
  if (!side || !g.result || g.result === '*') return '';
  if (g.result === '1/2-1/2') return '<span class="outcome draw">draw</span>';
  const won = (g.result === '1-0') === (side === 'w');
  return won ? '<span class="outcome won">won</span>' : '<span class="outcome lost">lost</span>';
}

function userCell(u) {
  return u ? `<a href="${profileUrl(u)}">${esc(u)}</a>` : '<span class="anon">Anonymous</span>';
}

function gamesHtml(games, me) {
  return games.map((g) => `<tr data-game="${esc(g.id)}">` +
    `<td><a href="/game/${encodeURIComponent(g.id)}">${esc(fmtDate(g.created_at, 'short'))}</a></td>` +
    `<td class="pg-variant">${esc(g.variant_name || g.variant)}</td><td>${userCell(g.white)}</td><td>${userCell(g.black)}</td>` +
    `<td>${g.result && g.result !== '*' ? esc(g.result) + ' ' + outcome(g, me) : '<span class="tag active">playing</span>'}</td>` +
    `<td>${g.rated ? '<span class="tag rated">Rated</span>' : '<span class="tag casual">Casual</span>'}</td></tr>`).join('');
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
    p.textContent = 'No rating history yet.';
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
  title.textContent = `${label}: rating history over ${points.length} rated game${points.length === 1 ? '' : 's'}, ` +
    `from ${Math.round(first)} to ${Math.round(last)}`;
  // Horizontal grid lines with the ratings on the left.
  for (let r = lo; r <= hi; r += step) {
    svg('line', { x1: m.l, x2: W - m.r, y1: y(r), y2: y(r), class: r === lo ? 'axis' : 'grid' }, g);
    const t = svg('text', { x: m.l - 6, y: y(r) + 4, 'text-anchor': 'end', class: 'axis-label' }, g);
    t.textContent = String(r);
  }
  svg('line', { x1: m.l, x2: m.l, y1: m.t, y2: H - m.b, class: 'axis' }, g);
  // Dates below: the first, the last and (room allowing) the middle one.
  const span = t1 - t0;
  const dateOpts = span > 300 * 86400000 ? { month: 'short', year: 'numeric' } : { month: 'short', day: 'numeric' };
  const dateText = (t) => { const d = toDate(t); return d ? d.toLocaleDateString(undefined, dateOpts) : ''; };
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
    (r.provisional ? ' <span class="provisional-note" title="Provisional: it settles after more rated games">provisional</span>' : '') + '</p>' +
    '<dl class="wdl">' +
    `<div><dt>Games</dt><dd class="wdl-games">${Number(r.games) || 0}</dd></div>` +
    `<div><dt>Wins</dt><dd class="wdl-wins">${Number(r.wins) || 0}</dd></div>` +
    `<div><dt>Draws</dt><dd class="wdl-draws">${Number(r.draws) || 0}</dd></div>` +
    `<div><dt>Losses</dt><dd class="wdl-losses">${Number(r.losses) || 0}</dd></div></dl>` +
    '<div class="rating-graph-box"></div>';
  return c;
}

async function main() {
  if (!name) { noSuchPlayer(); return; }
  let p;
  try {
    p = await api('/api/@/' + encodeURIComponent(name));
  } catch (e) {
    if (e.status === 404) { noSuchPlayer(); return; }
    throw e;
  }
  const who = p.username || name;
  const me = who.toLowerCase();
  document.title = `Chimera — ${who}`;
  $('profile-name').textContent = who;
  $('profile-since').textContent = p.created_at ? `Playing on Chimera since ${fmtDate(p.created_at)}.` : '';
  account().then((a) => { if (a && a.username.toLowerCase() === me) $('profile-you').classList.remove('hidden'); }, () => {});

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

  const games = p.games || [];
  $('games-section').classList.remove('hidden');
  $('profile-games-body').innerHTML = gamesHtml(games, me) || '<tr><td colspan="6">No games yet.</td></tr>';
}

main().catch((e) => {
  $('profile-error').textContent = `This player's page could not be read: ${e.message}`;
}).finally(() => $('profile-main').setAttribute('aria-busy', 'false'));
