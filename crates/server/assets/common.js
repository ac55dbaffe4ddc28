// Small helpers shared by the pages.
export async function api(path, body) {
  const opts = body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  const r = await fetch(path, opts);
  const text = await r.text();
  let data;
  try { data = JSON.parse(text); } catch (_) { data = { error: text }; }
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

/** A message at the foot of the page: an error (red), or with kind
 *  'notice' a neutral one (an answer, not a failure). */
export function toast(msg, kind) {
  const t = document.createElement('div');
  t.className = 'toast' + (kind === 'notice' ? ' notice' : '');
  t.id = 'toast';
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

export function header() {
  return `<header class="top"><a class="logo" href="/">Chimera</a><nav>
  <a href="/">Play</a><a href="/analysis">Analysis board</a>
  <a href="/rules">Rules</a></nav></header>`;
}

export function fmtClock(ms) {
  if (ms === null || ms === undefined) return '';
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  const m = Math.floor(s / 60);
  const sec = String(s % 60).padStart(2, '0');
  if (ms < 10000) return `${m}:${sec}.${Math.floor((ms % 1000) / 100)}`;
  return `${m}:${sec}`;
}

/** The fields of a variant's rule options (its schema, from /api/meta),
 *  filled with `values` or the defaults. */
export function optionFields(info, values = {}) {
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
export function myName() { return localStorage.getItem('chimera.name') || ''; }
export function saveName(n) { localStorage.setItem('chimera.name', n); }

/** Text made safe for innerHTML. */
export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}
