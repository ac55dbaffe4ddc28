import { api, toast, tokenFor, saveToken, header, myName, saveName, esc, optionFields, readOptions, optionsNote, account, profileUrl, playingRows, titleMark, t, lang, variantName, variantSummary, levelWords } from './common.js';

document.getElementById('hdr').innerHTML = header();
const $ = (id) => document.getElementById(id);

let meta;
// The logged-in account's name; null when logged out, undefined until known.
let me;
// Its ratings now by variant id ({rating, provisional}; only variants it
// played rated: any other is 1500?).
let myRatings = {};
async function init() {
  meta = await api('/api/meta');
  for (const v of meta.variants) $('variant').insertAdjacentHTML('beforeend', `<option value="${v.id}">${esc(variantName(v.name))}</option>`);
  for (const l of meta.levels) $('level').insertAdjacentHTML('beforeend', `<option value="${l.level}">${esc(t('level-n', { n: l.level }))}</option>`);
  $('level').value = '3';
  // Preset by a link (the game page's "New game": the same variant and opponent).
  const q = new URLSearchParams(location.search);
  if (q.get('variant')) $('variant').value = q.get('variant');
  const m = document.querySelector(`input[name=mode][value="${CSS.escape(q.get('mode') || '')}"]`);
  if (m) m.checked = true;
  $('name').value = myName();
  if (q.get('rated') === '1') $('rated').checked = true;
  // The time control and the computer's level (the game page's "New game").
  if ([...$('level').options].some((o) => o.value === q.get('level'))) $('level').value = q.get('level');
  const clock = (v) => { document.querySelector(`input[name=clock][value=${v}]`).checked = true; };
  if (q.get('minutes')) {
    clock('timed');
    $('minutes').value = q.get('minutes');
    if (q.get('increment')) $('increment').value = q.get('increment');
    checkMinutes();
  }
  // Days per move are for accounts: chosen once the server says who.
  const days = [...$('days').options].some((o) => o.value === q.get('days')) ? q.get('days') : null;
  if (days) $('days').value = days;
  refresh();
  // A link may preset the variant's rule options by key (the game page's "New game").
  for (const e of $('options-box').querySelectorAll('[data-option]')) if (q.get(e.dataset.option)) e.value = q.get(e.dataset.option);
  // Rated games are for accounts: the box shows once the server says who.
  account().then((a) => { me = a ? a.username : null; myRatings = (a && a.ratings) || {}; }, () => { me = undefined; })
    .then(() => { if (days && me) clock('days'); refresh(); loadSeeks(); loadPlaying(); });
  loadGames();
  loadSeeks();
  setInterval(loadGames, 5000);
  setInterval(loadSeeks, 3000);
  setInterval(loadPlaying, 10000);
  loadPools();
  setInterval(loadPools, 3000);
}

// Quick pairing: the pools of the chosen variant, entered with a click; the
// entry is polled each second (which keeps it in its pool) until a game.
let pools = [];
let searching = null;
async function loadPools() {
  try { pools = await api('/api/pools'); } catch (_) { return; }
  drawPools();
}
function drawPools() {
  const v = $('variant').value;
  $('quick-login').classList.toggle('hidden', me !== null);
  $('quick-pools').innerHTML = pools.filter((p) => p.variant === v).map((p) =>
    `<button type="button" class="quick-pool${searching === p.id ? ' searching' : ''}" data-pool="${esc(p.id)}"${me ? '' : ' disabled'}>` +
    `<span class="quick-clock">${p.minutes}+${p.increment}</span> <small class="quick-waiting">${esc(t('lobby-waiting', { n: p.waiting }))}</small></button>`).join('');
  $('quick-pools').querySelectorAll('.quick-pool').forEach((b) => b.addEventListener('click', () => enterPool(b.dataset.pool)));
}
async function enterPool(id) {
  try {
    await api(`/api/pool/${encodeURIComponent(id)}`, {});
  } catch (e) { toast(e.message); return; }
  searching = id;
  drawPools();
  pollPool();
}
async function pollPool() {
  if (!searching) return;
  let r;
  try { r = await api('/api/pool'); } catch (e) { searching = null; $('quick-status').classList.add('hidden'); drawPools(); return; }
  if (r.game) { location.href = r.url; return; }
  const p = pools.find((x) => x.id === r.pool);
  const secs = Math.round(r.waited_ms / 1000);
  $('quick-words').textContent = p
    ? t('lobby-looking-in', { variant: variantName(p.variant_name), clock: `${p.minutes}+${p.increment}`, range: r.range, s: secs })
    : t('lobby-looking', { range: r.range, s: secs });
  $('quick-status').classList.remove('hidden');
  setTimeout(pollPool, 1000);
}
$('quick-cancel').addEventListener('click', async () => {
  searching = null;
  $('quick-status').classList.add('hidden');
  try { await api('/api/pool/leave', {}); } catch (_) { /* gone already */ }
  drawPools();
});

/** The account's games in progress, its turn first (hidden when logged out or none). */
async function loadPlaying() {
  if (!me) return;
  let games;
  try { games = await api('/api/account/playing'); } catch (_) { return; }
  $('playing-panel').classList.toggle('hidden', games.length === 0);
  $('playing').innerHTML = playingRows(games);
}

// The name is checked here as the server checks it (it has the last word).
const NAME_OK = /^[\p{L}\p{N} _.'-]{1,20}$/u;
function nameProblem(n) {
  if (!n) return '';
  if ([...n].length > 20) return t('name-too-long');
  if (!NAME_OK.test(n) || n.includes('  ')) return t('name-bad-chars');
  return '';
}
$('name').addEventListener('change', () => {
  const n = $('name').value.trim();
  const p = nameProblem(n);
  if (p) { toast(p); return; }
  saveName(n);
});

function val(name) { const e = document.querySelector(`input[name=${name}]:checked`); return e && e.value; }

/** Whether the game to create is rated: the box ticked, and shown. */
function isRated() {
  const mode = val('mode');
  return !!me && (mode === 'seek' || mode === 'friend') && $('rated').checked;
}

/** The account's rating in variant `v` now, as {rating, provisional}. */
function myRating(v) {
  return myRatings[v] || { rating: 1500, provisional: true };
}

/** The rating range the form asks for, [low, high], or null for any. */
function chosenRange() {
  const d = parseInt($('range').value, 10);
  if (!me || val('mode') !== 'seek' || !d) return null;
  const r = myRating($('variant').value).rating;
  return [Math.max(400, r - d), Math.min(4000, r + d)];
}

function refresh() {
  if (pools.length) drawPools();
  const v = $('variant').value;
  const info = meta.variants.find((x) => x.id === v);
  // The variant's rule options, from its schema (kept while the variant stays).
  if ($('options-box').dataset.variant !== v) {
    $('options-box').dataset.variant = v;
    $('options-box').innerHTML = optionFields(info);
  }
  $('variant-rules').innerHTML = `${esc(variantSummary(info))} <a href="/rules/${v}">${esc(t('hdr-rules'))}</a>`;
  const mode = val('mode');
  // Rated: an account's game against a stranger or a friend, by the
  // variant's default rules (the option fields are set back and locked).
  const ratable = mode === 'seek' || mode === 'friend';
  $('rated-box').classList.toggle('hidden', !(me && ratable));
  $('rated-login').classList.toggle('hidden', !(me === null && ratable));
  const rated = isRated();
  $('rated-hint').classList.toggle('hidden', !rated);
  for (const e of $('options-box').querySelectorAll('[data-option]')) {
    if (rated) {
      const o = info && info.options.find((x) => x.key === e.dataset.option);
      if (o) e.value = o.default;
    }
    e.disabled = rated;
  }
  // A rating range: an account's open seek, around its rating in the variant.
  $('range-box').classList.toggle('hidden', !(me && mode === 'seek'));
  const range = chosenRange();
  $('range-hint').textContent = range ? t('lobby-range-only', { lo: range[0], hi: range[1] }) : t('lobby-range-anyone');
  $('level-box').classList.toggle('hidden', mode !== 'engine');
  $('color-box').classList.toggle('hidden', mode === 'hotseat');
  // Correspondence: an account's game against a person.
  const daysOk = mode === 'seek' || mode === 'friend';
  $('days-choice').classList.toggle('hidden', !(me && daysOk));
  $('days-login').classList.toggle('hidden', !(me === null && daysOk));
  if (val('clock') === 'days' && !(me && daysOk)) document.querySelector('input[name=clock][value=none]').checked = true;
  $('clock-box').classList.toggle('hidden', val('clock') !== 'timed');
  $('days-box').classList.toggle('hidden', val('clock') !== 'days');
  $('create-btn').textContent = mode === 'seek' ? t('lobby-play-stranger') : t('lobby-create');
  const l = meta.levels.find((x) => String(x.level) === $('level').value);
  $('level-words').textContent = levelWords(l);
}
document.querySelectorAll('#create select, #create input').forEach((e) => e.addEventListener('change', refresh));

// The server's rule for a clock (web.rs, clock_bounds): a whole number of
// seconds from 15 s to 180 min, so 0.25, 0.75 or 2.25 minutes. (The same
// double arithmetic as the server's: what passes here passes there.)
function checkMinutes() {
  const f = $('minutes');
  const secs = parseFloat(f.value) * 60;
  const ok = f.value === '' || (Number.isInteger(secs) && secs >= 15 && secs <= 10800);
  f.setCustomValidity(ok ? '' : t('lobby-minutes-bad'));
}
$('minutes').addEventListener('input', checkMinutes);

$('create').addEventListener('submit', async (e) => {
  e.preventDefault();
  const mode = val('mode');
  const body = { variant: $('variant').value, mode };
  const rated = isRated();
  const options = readOptions($('options-box'));
  // A rated game takes the variant's default options (none sent).
  if (rated) body.rated = true;
  else if (Object.keys(options).length) body.options = options;
  if (mode === 'engine') body.level = parseInt($('level').value, 10);
  if (mode !== 'hotseat') body.color = val('color');
  const range = chosenRange();
  if (range) body.rating_range = range;
  const name = $('name').value.trim();
  if (name && mode !== 'hotseat') {
    const p = nameProblem(name);
    if (p) { toast(p); return; }
    saveName(name);
    body.name = name;
  }
  if (val('clock') === 'timed') body.clock = { minutes: parseFloat($('minutes').value), increment: parseFloat($('increment').value) };
  if (val('clock') === 'days') body.days = parseInt($('days').value, 10);
  try {
    const r = await api('/api/games', body);
    saveToken(r.id, r.token, r.colors);
    if (r.invite) localStorage.setItem('chimera.invite.' + r.id, r.invite);
    location.href = r.url;
  } catch (err) { toast(err.message); }
});

async function loadGames() {
  let games;
  try { games = await api('/api/games'); } catch (_) { return; }
  const rows = games.map((g) => {
    const mine = tokenFor(g.id) ? `<span class="tag mine">${esc(t('yours'))}</span> ` : '';
    // An account's seat: its name (a link to its profile), the rating it
    // played at, and the change a rated game made.
    const seat = (acc, name, diff) => acc
      ? `${titleMark(acc.title)}<a href="${profileUrl(acc.username)}">${esc(acc.username)}</a> <span class="seek-rating">${esc(acc.rating)}</span>` +
        (diff != null ? ` <small class="rating-diff ${diff > 0 ? 'up' : diff < 0 ? 'down' : 'even'}">${diff >= 0 ? '+' : '−'}${Math.abs(diff)}</small>` : '')
      : (name ? esc(name) : esc(t('anonymous')));
    const d = g.rating_diffs || [null, null];
    const w = seat(g.white, g.white_name, d[0]);
    const b = seat(g.black, g.black_name, d[1]);
    const rated = g.rated ? ` <span class="tag rated">${esc(t('rated'))}</span>` : '';
    const person = g.white || g.white_name ? w : g.black || g.black_name ? b : '';
    const computer = esc(t('computer-n', { n: g.engine_level }));
    const opp = g.mode === 'engine' ? (person ? t('a-v-b', { a: person, b: computer }) : computer)
      : g.mode === 'hotseat' ? esc(t('hot-seat')) : `${t('a-v-b', { a: w, b })}${g.mode === 'friend' ? ` <small>${esc(t('lobby-friends'))}</small>` : ''}${rated}`;
    const st = g.status === 'active' ? `<span class="tag active">${esc(t('playing'))}</span>` : `${g.result} <small>${g.reason || ''}</small>`;
    return `<tr><td>${mine}<a href="/game/${g.id}">${esc(variantName(g.variant_name))}</a></td><td class="card-main">${opp}</td><td data-label="${esc(t('moves'))}">${Math.ceil(g.plies / 2)}</td><td>${st}</td><td class="when" data-label="${esc(t('last-move'))}">${new Date(g.updated_at).toLocaleString(lang())}</td></tr>`;
  });
  $('games').innerHTML = rows.join('') || `<tr><td colspan="5">${esc(t('lobby-no-games'))}</td></tr>`;
}

init().catch((e) => toast(e.message));

function fmtSeekClock(c) {
  if (!c) return t('clock-none');
  const min = c[0] / 60000;
  return `${Number.isInteger(min) ? min : min.toFixed(2)}+${c[1] / 1000}`;
}

async function loadSeeks() {
  let seeks;
  try { seeks = await api('/api/seeks'); } catch (_) { return; }
  const rows = seeks.map((k) => {
    const mine = !!tokenFor(k.id);
    const variant = esc(variantName(k.variant_name)) + (optionsNote(k.options) ? ` <small>${esc(optionsNote(k.options))}</small>` : '') +
      (k.custom_start ? ` <small>${esc(t('lobby-own-start'))}</small>` : '');
    // A rated seek of this account made on another device: its game page
    // finds the account's seat (and can cancel it there).
    const ownAccount = !mine && !!k.username && !!me && k.username.toLowerCase() === me.toLowerCase();
    const act = mine
      ? `<span class="tag mine">${esc(t('yours'))}</span> <button class="seek-cancel" data-id="${esc(k.id)}">${esc(t('cancel'))}</button>`
      : ownAccount ? `<span class="tag mine">${esc(t('yours'))}</span> <a class="seek-open" href="/game/${encodeURIComponent(k.id)}">${esc(t('lobby-open'))}</a>`
        : (k.rated || k.rating_range) && me === null ? `<a class="button seek-login" href="/login">${esc(t('lobby-login-to-join'))}</a>`
          : outOfRange(k) ? `<button class="seek-out" disabled title="${esc(outOfRange(k))}">${esc(t('lobby-out-of-range'))}</button>`
            : `<button class="primary seek-join" data-id="${esc(k.id)}">${esc(t('lobby-join'))}</button>`;
    const shown = k.name && (!k.username || k.name.toLowerCase() !== k.username.toLowerCase()) ? esc(k.name) : '';
    const who = k.username
      ? `<a class="seek-user" href="${profileUrl(k.username)}">${esc(k.username)}</a>${shown ? ` <small>(${shown})</small>` : ''}`
      : shown || esc(t('anonymous'));
    const rating = (k.rating ? ` <span class="seek-rating">${esc(k.rating)}</span>` : '') +
      (k.rating_range ? ` <small class="seek-range" title="${esc(t('lobby-seek-range', { lo: k.rating_range[0], hi: k.rating_range[1] }))}">${k.rating_range[0]}–${k.rating_range[1]}</small>` : '');
    const kind = (k.bot ? `<span class="tag bot seek-bot" title="${esc(t('lobby-bot-title'))}">${esc(t('lobby-bot'))}</span> ` : '') +
      (k.rated ? `<span class="tag rated seek-rated">${esc(t('rated'))}</span>` : `<span class="tag casual seek-casual">${esc(t('casual'))}</span>`);
    return `<tr data-seek="${esc(k.id)}" data-rated="${k.rated ? 'true' : 'false'}"><td class="seek-player card-main">${who}${rating}</td><td>${variant}</td><td>${kind}</td>` +
      `<td data-label="${esc(t('clock'))}">${esc(k.days ? t('n-days', { n: k.days }) : fmtSeekClock(k.clock))}</td><td data-label="${esc(t('lobby-you-play'))}">${esc(k.color === 'white' ? t('white') : k.color === 'black' ? t('black') : t('random'))}</td><td class="card-action">${act}</td></tr>`;
  });
  $('seeks').innerHTML = rows.join('') || `<tr><td colspan="6">${esc(t('lobby-no-seeks'))}</td></tr>`;
  $('seeks').querySelectorAll('.seek-join').forEach((b) => b.addEventListener('click', () => {
    const bot = seeks.find((k) => k.id === b.dataset.id && k.bot);
    if (bot) joinBotSeek(bot); else joinSeek(b.dataset.id);
  }));
  $('seeks').querySelectorAll('.seek-cancel').forEach((b) => b.addEventListener('click', () => cancelSeek(b.dataset.id)));
  // How many times the list was drawn (the browser tests time their clicks by it).
  $('seeks').dataset.loads = String(parseInt($('seeks').dataset.loads || '0', 10) + 1);
}

/** Why this account may not join seek `k` (its rating range), or ''. */
function outOfRange(k) {
  if (!k.rating_range || !me) return '';
  const r = myRating(k.variant);
  const [lo, hi] = k.rating_range;
  return r.rating >= lo && r.rating <= hi ? '' : t('lobby-out-of-range-why', { lo, hi, rating: `${r.rating}${r.provisional ? '?' : ''}` });
}

async function joinSeek(id) {
  const body = {};
  const n = $('name').value.trim();
  if (n && !nameProblem(n)) { saveName(n); body.name = n; }
  try {
    const r = await api(`/api/games/${id}/join`, body);
    saveToken(id, r.token, r.colors);
    location.href = `/game/${id}`;
  } catch (e) { toast(e.message); loadSeeks(); }
}

/** A house bot's seek: a challenge to the bot with the seek's terms, which
 *  it answers at once (the game, or why not). */
async function joinBotSeek(k) {
  const body = { variant: k.variant, rated: k.rated, color: 'random' };
  if (k.clock) body.clock = { minutes: k.clock[0] / 60000, increment: k.clock[1] / 1000 };
  try {
    const c = await api(`/api/challenge/${encodeURIComponent(k.username)}`, body);
    if (!c.game) {
      toast(c.declineReason === 'later' ? t('bot-busy', { name: k.username }) : t('bot-declined', { name: k.username, reason: c.declineReason }));
      loadSeeks();
      return;
    }
    saveToken(c.game.id, c.game.token, c.game.colors);
    location.href = c.game.url;
  } catch (e) { toast(e.message); loadSeeks(); }
}

async function cancelSeek(id) {
  try { await api(`/api/games/${id}/cancel`, { token: tokenFor(id) }); } catch (e) { toast(e.message); }
  loadSeeks();
}
