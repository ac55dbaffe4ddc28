// Small helpers shared by the pages.
import { t, lang, LANGS, setLang } from './i18n.js';

export { t, lang };
export async function api(path, body) {
  const opts = body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  const r = await fetch(path, opts);
  const text = await r.text();
  let data;
  try { data = JSON.parse(text); } catch (_) { data = { error: text }; }
  if (!r.ok) {
    // The status and a Retry-After (seconds) ride along for pages that care.
    const e = new Error(data.error || r.statusText);
    e.status = r.status;
    const after = parseInt(r.headers.get('Retry-After') || '', 10);
    if (after >= 0) e.retryAfter = after;
    throw e;
  }
  return data;
}

/** The screen-reader mode (the look's `blind` setting) on a page: blind.js
 *  loaded and started with `hooks` (its `start()` hooks) while the setting
 *  is on, and stopped when it goes off, also while the page is open.
 *  `ready(mode)` runs each time the mode starts. Returns `now()`, the
 *  running mode or null, and `first`, a promise settled once the page's
 *  first look at the setting is done. */
export function screenReaderMode(hooks, ready) {
  let mode = null;
  const sync = async () => {
    const on = window.chimeraPrefs && window.chimeraPrefs.read().blind === 'on';
    if (on && !mode) {
      const m = await import('./blind.js');
      if (mode) return;
      mode = m.start(hooks);
      if (ready) ready(mode);
    } else if (!on && mode) {
      mode.stop();
      mode = null;
    }
  };
  window.addEventListener('chimera:prefs', () => { sync(); });
  return { now: () => mode, first: sync() };
}

/** A message at the foot of the page: an error (red), or with kind
 *  'notice' a neutral one (an answer, not a failure). */
export function toast(msg, kind) {
  const t = document.createElement('div');
  t.className = 'toast' + (kind === 'notice' ? ' notice' : '');
  t.id = 'toast';
  t.setAttribute('role', kind === 'notice' ? 'status' : 'alert');
  t.textContent = msg;
  document.querySelectorAll('.toast').forEach((x) => x.remove());
  document.body.appendChild(t);
  setTimeout(() => t.remove(), 4000);
}

export function tokenFor(id) { return localStorage.getItem('chimera.token.' + id); }
export function saveToken(id, token, colors) {
  localStorage.setItem('chimera.token.' + id, token);
  localStorage.setItem('chimera.colors.' + id, JSON.stringify(colors));
}

/** Every game seat this browser holds: [{id, token}] (sent at sign-up, so
 *  that the new account takes over the games played here anonymously). */
export function storedTokens() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (!k || !k.startsWith('chimera.token.')) continue;
    const token = localStorage.getItem(k);
    if (token) out.push({ id: k.slice('chimera.token.'.length), token });
  }
  return out;
}

// The logged-in account. The session is an HttpOnly cookie the page never
// sees: GET /api/account says who (once per page load, shared by the header
// and the page). The last name seen is kept in this browser only to draw the
// header's link at once; the server's answer corrects it.
const ACCOUNT_HINT = 'chimera.account';
let accountCall = null;

/** The account: a promise of {username, created_at}, or of null when
 *  logged out (401). Other failures reject (their Error has a status). */
export function account() {
  if (!accountCall) {
    // /api/session answers 200 with null for a visitor (no 401 in the console).
    accountCall = api('/api/session').then((r) => {
      rememberAccount(r.account && r.account.username);
      return r.account || null;
    });
  }
  return accountCall;
}

/** Note in this browser who is logged in (null: nobody), for the header. */
export function rememberAccount(username) {
  try {
    if (username) localStorage.setItem(ACCOUNT_HINT, username);
    else localStorage.removeItem(ACCOUNT_HINT);
  } catch (_) { /* storage refused: the header waits for the server */ }
}

/** A message for the next page of this tab (shown there as a notice). */
export function flash(msg) { sessionStorage.setItem('chimera.flash', msg); }

/** The account link's text and target: the username (to /account) or
 *  "Log in" (to /login, back here afterwards). */
function accountLink(a, username) {
  a.dataset.state = username ? 'in' : 'out';
  if (username) {
    a.textContent = username;
    a.href = '/account';
    a.title = t('hdr-your-account');
    return;
  }
  a.textContent = t('log-in');
  const here = location.pathname + location.search;
  a.href = here === '/' || here.startsWith('/login') || here.startsWith('/account') ? '/login' : '/login?next=' + encodeURIComponent(here);
  a.removeAttribute('title');
}

export function header() {
  // After the caller has put this markup in the page: the server's word on
  // the account (failures leave the link as drawn), and a flashed message.
  setTimeout(() => {
    const msg = sessionStorage.getItem('chimera.flash');
    if (msg) { sessionStorage.removeItem('chimera.flash'); toast(msg, 'notice'); }
    bindPrefs();
    // The service worker: the offline page (and Web Push, notes.js).
    if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {});
    account().then((a) => {
      const e = document.getElementById('account-link');
      if (e) accountLink(e, a && a.username);
      if (a) syncPrefs();
      // A logged-in page hears the account's notifications.
      if (a && e) import('./notes.js').then((m) => m.start(), () => {});
    }, () => {
      const e = document.getElementById('account-link');
      if (e) e.dataset.state = 'unknown';
    });
  }, 0);
  const known = localStorage.getItem(ACCOUNT_HINT);
  // The page's main part, the target of the skip link (focusable by it).
  const main = document.querySelector('main');
  if (main && !main.id) main.id = 'main';
  if (main) main.tabIndex = -1;
  const blindOn = window.chimeraPrefs && window.chimeraPrefs.read().blind === 'on';
  // First in the Tab order, shown when focused (as lichess's): skip the
  // header, and the screen-reader mode switched on or off from any page.
  return `<header class="top"><a class="skip-link" href="#${main ? main.id : 'hdr'}">${t('hdr-skip')}</a>` +
  `<button type="button" class="skip-link" id="blind-toggle" aria-pressed="${blindOn}">${t('blind-mode')}</button>` +
  `<a class="logo" href="/">Chimera</a><nav aria-label="${t('hdr-site')}">
  <a href="/">${t('hdr-play')}</a><a href="/analysis">${t('hdr-analysis')}</a>
  <a href="/rules">${t('hdr-rules')}</a><a href="/learn">${t('hdr-learn')}</a><a href="/puzzles">${t('hdr-puzzles')}</a><a href="/players">${t('hdr-players')}</a><a href="/lab">${t('hdr-lab')}</a></nav>
  ${prefsMarkup()}
  <a id="account-link" class="account-link" data-state="pending" href="${known ? '/account' : '/login'}">${known ? esc(known) : t('log-in')}</a></header>`;
}

// The look (theme.js keeps and applies it): the header's "Look" button
// opens three choices; a logged-in player's choice is also the account's.
const PREF_WORDS = () => ({
  theme: [t('look-colours'), { system: t('look-system'), dark: t('look-dark'), light: t('look-light') }],
  board: [t('look-board'), { brown: t('look-brown'), blue: t('look-blue'), green: t('look-green'), grey: t('look-grey') }],
  pieces: [t('look-pieces'), { classic: t('look-classic'), disc: t('look-discs') }],
});

function prefsMarkup() {
  const P = window.chimeraPrefs;
  if (!P) return '';
  const now = P.read();
  const fields = Object.entries(PREF_WORDS()).map(([k, [label, words]]) =>
    `<label for="pref-${k}">${label}</label><select id="pref-${k}" data-pref="${k}">` +
    P.CHOICES[k].map((v) => `<option value="${v}"${now[k] === v ? ' selected' : ''}>${esc(words[v])}</option>`).join('') + '</select>').join('');
  // The language: each by its own name (and marked as in its language).
  const langs = `<label for="pref-lang">${t('look-language')}</label><select id="pref-lang" data-lang-choice="1">` +
    LANGS.map(([l, name]) => `<option value="${l}" lang="${l}"${l === lang() ? ' selected' : ''}>${name}</option>`).join('') + '</select>';
  const blind = `<div class="check"><input type="checkbox" id="pref-blind" data-pref="blind"${now.blind === 'on' ? ' checked' : ''}>` +
    `<label for="pref-blind">${t('blind-mode')}</label></div>`;
  return `<div class="prefs"><button type="button" id="prefs-button" class="prefs-button" aria-expanded="false" aria-controls="prefs-panel">${t('look')}</button>
  <div id="prefs-panel" class="prefs-panel hidden" role="group" aria-label="${t('look-label')}">${fields}${langs}${blind}</div></div>`;
}

let prefsLoggedIn = false;

function bindPrefs() {
  const button = document.getElementById('prefs-button');
  const panel = document.getElementById('prefs-panel');
  if (!button || !panel) return;
  const show = (open) => { panel.classList.toggle('hidden', !open); button.setAttribute('aria-expanded', String(open)); };
  button.onclick = () => show(panel.classList.contains('hidden'));
  panel.addEventListener('keydown', (e) => { if (e.key === 'Escape') { show(false); button.focus(); } });
  document.addEventListener('click', (e) => { if (!e.target.closest('.prefs')) show(false); });
  const choose = (k, v) => {
    const p = window.chimeraPrefs.save({ ...window.chimeraPrefs.read(), [k]: v });
    if (prefsLoggedIn) api('/api/account/prefs', { ...p, lang: lang() }).catch(() => {});
  };
  panel.addEventListener('change', (e) => {
    if (e.target.dataset.langChoice) {
      // The language: the cookie the server reads (and the account's, when
      // logged in), then the page again in it.
      const l = e.target.value;
      const done = prefsLoggedIn ? api('/api/account/prefs', { ...window.chimeraPrefs.read(), lang: l }).catch(() => {}) : Promise.resolve();
      done.then(() => setLang(l));
      return;
    }
    const k = e.target.dataset.pref;
    if (!k) return;
    choose(k, e.target.type === 'checkbox' ? (e.target.checked ? 'on' : 'off') : e.target.value);
  });
  const toggle = document.getElementById('blind-toggle');
  if (toggle) toggle.onclick = () => choose('blind', window.chimeraPrefs.read().blind === 'on' ? 'off' : 'on');
  window.addEventListener('chimera:prefs', (e) => {
    for (const s of panel.querySelectorAll('select[data-pref]')) s.value = e.detail[s.dataset.pref];
    const on = e.detail.blind === 'on';
    const box = document.getElementById('pref-blind');
    if (box) box.checked = on;
    if (toggle) toggle.setAttribute('aria-pressed', String(on));
  });
}

/** Logged in: the account's look wins over this browser's; an account
 *  with none yet takes this browser's. So does its language: a browser
 *  that has not chosen one (no cookie) takes the account's, once. */
function syncPrefs() {
  prefsLoggedIn = true;
  const P = window.chimeraPrefs;
  if (!P) return;
  api('/api/account/prefs').then((stored) => {
    const mine = P.read();
    if (stored && stored.prefs) {
      // A setting the account has not kept yet (one newer than its
      // choice, such as the screen-reader mode) stays this browser's.
      const theirs = P.clean({ ...mine, ...stored.prefs });
      if (JSON.stringify(theirs) !== JSON.stringify(mine)) P.save(theirs);
      const l = stored.prefs.lang;
      if (l && l !== lang() && LANGS.some(([x]) => x === l) && !/(^|;\s*)chimera_lang=/.test(document.cookie)) setLang(l);
    } else {
      api('/api/account/prefs', { ...mine, lang: lang() }).catch(() => {});
    }
  }, () => {});
}

export function fmtClock(ms) {
  if (ms === null || ms === undefined) return '';
  ms = Math.max(0, ms);
  // A correspondence clock: days and hours, then hours and minutes.
  if (ms >= 86400000) {
    const d = Math.floor(ms / 86400000);
    const h = Math.floor((ms % 86400000) / 3600000);
    return t('clock-days-hours', { d, h });
  }
  if (ms >= 3600000) return t('clock-hours-minutes', { h: Math.floor(ms / 3600000), m: String(Math.floor((ms % 3600000) / 60000)).padStart(2, '0') });
  const s = Math.floor(ms / 1000);
  const m = Math.floor(s / 60);
  const sec = String(s % 60).padStart(2, '0');
  if (ms < 10000) return `${m}:${sec}.${Math.floor((ms % 1000) / 100)}`;
  return `${m}:${sec}`;
}

/** The fields of a variant's rule options (its schema, from /api/meta),
 *  filled with `values` or the defaults. */
export function optionFields(info, values = {}) {
  // The rule options' words are the server's, in the reader's language (/api/meta).
  return (info ? info.options : []).map((o) => `<label for="opt-${esc(o.key)}">${esc(o.label)} <small>${esc(o.help)}</small></label>` +
    `<input id="opt-${esc(o.key)}" data-option="${esc(o.key)}" value="${esc(values[o.key] || o.default)}" pattern="${esc(o.pattern)}" autocomplete="off" spellcheck="false">`).join('');
}

/** The values of the option fields inside `box`: {key: value}. */
export function readOptions(box) {
  const out = {};
  for (const e of box.querySelectorAll('[data-option]')) out[e.dataset.option] = e.value.trim();
  return out;
}

/** A game's rule options in a few words for a title (` (QNRB)`), or ''. */
export function optionsNote(options) {
  const v = Object.values(options || {});
  return v.length ? ` (${v.join(', ')})` : '';
}

/** The player's chosen name, remembered in this browser ('' if none). */
/** The account's games in progress (GET /api/account/playing) as table
 *  rows for the lobby and the profile: its turn first. */
export function playingRows(games) {
  return games.map((g) => {
    const opp = g.opponent ? titleMark(g.opponent_title) + esc(g.opponent) + (g.opponent_rating ? ` <span class="seek-rating">${esc(g.opponent_rating)}</span>` : '') : `<em>${esc(t('waiting-for-opponent'))}</em>`;
    const turn = g.is_my_turn ? `<span class="tag mine your-turn">${esc(t('your-turn'))}</span>` : esc(t('their-turn'));
    const kind = g.days ? esc(t('days-a-move', { n: g.days })) : '';
    return `<tr data-game="${esc(g.id)}" data-my-turn="${g.is_my_turn}"><td><a href="/game/${encodeURIComponent(g.id)}">${esc(variantName(g.variant_name))}</a>${kind ? ` <small>${kind}</small>` : ''}</td>` +
      `<td>${opp}</td><td>${turn}</td><td class="left">${g.ms_left != null ? esc(fmtClock(g.ms_left)) : ''}</td></tr>`;
  }).join('');
}

export function myName() { return localStorage.getItem('chimera.name') || ''; }
export function saveName(n) { localStorage.setItem('chimera.name', n); }

/** Text made safe for innerHTML. */
export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

/** The address of a player's profile page. */
export function profileUrl(username) { return '/@/' + encodeURIComponent(username); }

/** The mark before a BOT account's name (a house bot, or a program that
 *  plays through the Bot API), as HTML; '' for anyone else. */
export function titleMark(title) {
  return title === 'BOT' ? `<span class="tag bot player-title" title="${esc(t('bot-title'))}">BOT</span> ` : '';
}

/** A time from the server (Unix seconds or milliseconds, or a date text) as
 *  a Date, or null when it is none. */
export function toDate(t) {
  if (t === null || t === undefined || t === '') return null;
  const d = new Date(typeof t === 'number' ? (t < 1e12 ? t * 1000 : t) : t);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A date in the reader's words ("7 December 2025"); `style` 'short' for
 *  a table ("7 Dec 2025"). */
export function fmtDate(t, style) {
  const d = toDate(t);
  if (!d) return String(t ?? '');
  return d.toLocaleDateString(lang(), { year: 'numeric', month: style === 'short' ? 'short' : 'long', day: 'numeric' });
}

/** A variant's name in the reader's words: chess is Schach, échecs,
 *  ajedrez; the other variants' names are names and stay. */
export function variantName(name) {
  return name === 'Chess' ? t('variant-chess') : name;
}

/** A variant's summary: the server gives it in the reader's language
 *  (/api/meta, from the catalogs; the rules module's English where the
 *  catalog has none). */
export function variantSummary(info) {
  return info ? info.summary : '';
}

/** An engine level's words (the server's, by level) in the reader's language. */
export function levelWords(l) {
  const words = [null, t('level-words-1'), t('level-words-2'), t('level-words-3'), t('level-words-4'),
    t('level-words-5'), t('level-words-6'), t('level-words-7'), t('level-words-8')];
  return l ? words[l.level] || l.words : '';
}

/** How a game ended (the server's words: "checkmate", "time forfeit"...)
 *  in the reader's language; a reason this list lacks stays as it came. */
export function reasonText(r) {
  const words = {
    checkmate: t('reason-checkmate'),
    stalemate: t('reason-stalemate'),
    'threefold repetition': t('reason-threefold'),
    'fifty-move rule': t('reason-fifty'),
    'dead material': t('reason-dead-material'),
    resignation: t('reason-resignation'),
    'time forfeit': t('reason-timeout'),
    agreement: t('reason-agreement'),
    aborted: t('reason-aborted'),
  };
  return words[r] || r || '';
}

/** A rating change as players read it: +12, -8, +0. */
export function fmtDiff(n) {
  const v = Math.round(Number(n) || 0);
  return (v < 0 ? '-' : '+') + Math.abs(v);
}
