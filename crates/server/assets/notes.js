// The notifications of a logged-in account, on every page: a button in the
// header with the count of unread ones, a list under it, and a message at
// the foot of the page as each arrives over the account's WebSocket
// (/ws/notify). A challenge is answered from the list; an accepted
// challenge of one's own opens its game. The list's foot turns Web Push
// on or off for this device ("Notify me on this device": a challenge or a
// correspondence move reaches it while no page of the site is open; the
// service worker /sw.js shows it).
import { api, toast, esc, saveToken, t } from './common.js';

// A bell, drawn here (no icon font: every system shows it).
const BELL = '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M12 2a1.5 1.5 0 0 0-1.5 1.5v.7A6.5 6.5 0 0 0 5.5 10.5V15l-2 2.5V19h17v-1.5l-2-2.5v-4.5a6.5 6.5 0 0 0-5-6.3v-.7A1.5 1.5 0 0 0 12 2zm-2.5 18.5a2.5 2.5 0 0 0 5 0z"/></svg>';

let items = [];
let unread = 0;
let socket = null;
let retry = 1000;


function timeControl(tc) {
  if (!tc || tc.type === 'unlimited') return t('notes-no-clock');
  if (tc.type === 'correspondence') return t('days-a-move', { n: tc.daysPerTurn });
  return tc.show || `${tc.limit / 60}+${tc.increment}`;
}

/** A notification in words. */
export function words(it) {
  const d = it.data || {};
  switch (it.kind) {
    case 'challenge': {
      const a = { name: `${d.challenger.title === 'BOT' ? 'BOT ' : ''}${d.challenger.name}`, variant: d.variant.name, clock: timeControl(d.timeControl) };
      return d.rated ? t('notes-challenge-rated', a) : t('notes-challenge-casual', a);
    }
    case 'challenge_accepted': return t('notes-accepted', { name: d.by, variant: d.variant });
    case 'challenge_declined': return t('notes-declined', { name: d.by, reason: d.reason_words || t('notes-not-now') });
    case 'challenge_canceled': return t('notes-canceled', { name: d.by });
    case 'seek_taken': return t('notes-seek-taken', { name: d.by || d.name || t('notes-someone'), variant: d.variant });
    case 'move': return t('notes-move', { name: d.opponent || t('notes-your-opponent'), move: d.san, variant: d.variant });
    case 'game_over': return d.opponent ? t('notes-over-against', { variant: d.variant, name: d.opponent, result: d.result }) : t('notes-over', { variant: d.variant, result: d.result });
    default: return it.kind;
  }
}

/** Where a notification leads, if anywhere. */
function link(it) {
  const d = it.data || {};
  return d.url && it.kind !== 'challenge' ? d.url : null;
}

function render() {
  const count = document.getElementById('notes-count');
  if (!count) return;
  count.textContent = String(unread);
  count.classList.toggle('hidden', unread === 0);
  document.getElementById('notes-button').setAttribute('aria-label', t('notes-unread', { n: unread }));
  const list = document.getElementById('notes-list');
  list.innerHTML = items.length === 0 ? `<li class="notes-empty">${esc(t('notes-nothing'))}</li>` : items.map((it) => {
    const text = esc(words(it));
    const href = link(it);
    const body = href ? `<a href="${esc(href)}">${text}</a>` : text;
    const act = it.kind === 'challenge'
      ? ` <span class="notes-actions"><button class="primary note-accept" data-id="${esc(it.data.id)}">${esc(t('notes-accept'))}</button>` +
        ` <button class="note-decline" data-id="${esc(it.data.id)}">${esc(t('decline'))}</button></span>`
      : '';
    return `<li class="note${it.read ? '' : ' unread'}" data-kind="${esc(it.kind)}">${body}${act}</li>`;
  }).join('');
  list.querySelectorAll('.note-accept').forEach((b) => b.addEventListener('click', () => accept(b.dataset.id)));
  list.querySelectorAll('.note-decline').forEach((b) => b.addEventListener('click', () => decline(b.dataset.id, b)));
}

async function accept(id) {
  try {
    const r = await api(`/api/challenge/${encodeURIComponent(id)}/accept`, {});
    saveToken(r.id, r.token, r.colors);
    location.href = r.url;
  } catch (e) { toast(e.message); }
}

async function decline(id, button) {
  try {
    await api(`/api/challenge/${encodeURIComponent(id)}/decline`, { reason: 'generic' });
    const li = button.closest('li');
    if (li) li.querySelector('.notes-actions').textContent = t('notes-declined-done');
  } catch (e) { toast(e.message); }
}

function arrived(it) {
  items.unshift(it);
  items = items.slice(0, 50);
  unread += 1;
  render();
  toast(words(it), 'notice');
  // One's own challenge accepted: its game opens (not over a game in play).
  if (it.kind === 'challenge_accepted' && it.data.url && !location.pathname.startsWith('/game/')) location.href = it.data.url;
}

function connect() {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  socket = new WebSocket(`${proto}//${location.host}/ws/notify`);
  socket.addEventListener('message', (e) => {
    let m;
    try { m = JSON.parse(e.data); } catch (_) { return; }
    if (m.t === 'notifications') { items = m.items; unread = m.unread; retry = 1000; render(); }
    if (m.t === 'notification') arrived(m.item);
  });
  socket.addEventListener('close', () => {
    // Reconnect, more slowly each time (30 s at most).
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 30000);
  });
}

// Web Push on this device: the browser's subscription (made with the
// server's key, kept by the server for this account) and the words shown.
const canPush = 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
let pushOn = false;
let pushBusy = false;

function pushRender(message) {
  const b = document.getElementById('push-toggle');
  const s = document.getElementById('push-state');
  if (!b || !s) return;
  b.textContent = pushOn ? t('push-stop') : t('push-start');
  b.disabled = pushBusy || !canPush;
  b.setAttribute('aria-pressed', String(pushOn));
  s.textContent = message || (!canPush ? t('push-cannot')
    : pushOn ? t('push-on')
      : t('push-off'));
}

/** The server's key as bytes (applicationServerKey). */
function keyBytes(b64) {
  const s = atob(b64.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

function sameKey(buf, bytes) {
  if (!buf) return false;
  const a = new Uint8Array(buf);
  return a.length === bytes.length && a.every((x, i) => x === bytes[i]);
}

/** `p`, or an error saying `what` did not answer within `ms`. */
function within(p, ms, what) {
  let timer;
  const late = new Promise((_, no) => { timer = setTimeout(() => no(new Error(t('push-timeout', { what, s: ms / 1000 }))), ms); });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

async function currentSubscription() {
  const reg = await navigator.serviceWorker.getRegistration('/');
  return reg ? reg.pushManager.getSubscription() : null;
}

/** Whether this device's subscription is this account's on the server. */
async function pushCheck() {
  if (!canPush) { pushRender(); return; }
  try {
    const sub = await currentSubscription();
    if (!sub) { pushOn = false; pushRender(); return; }
    const r = await api('/api/push/subscriptions');
    pushOn = r.subscriptions.some((x) => x.endpoint === sub.endpoint);
    pushRender();
  } catch (e) { pushRender(t('push-read-error', { error: e.message })); }
}

async function pushStart() {
  if (Notification.permission === 'denied') {
    pushRender(t('push-blocked'));
    return;
  }
  const perm = await Notification.requestPermission();
  if (perm !== 'granted') { pushRender(t('push-denied')); return; }
  const k = await api('/api/push/key');
  if (!k.services) { pushRender(t('push-none')); return; }
  const key = keyBytes(k.key);
  const reg = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  await within(navigator.serviceWorker.ready, 10000, t('push-the-worker'));
  let sub = await reg.pushManager.getSubscription();
  // One made with another key (another server's) cannot be used.
  if (sub && !sameKey(sub.options.applicationServerKey, key)) { await sub.unsubscribe(); sub = null; }
  if (!sub) {
    try {
      sub = await within(reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }), 15000,
        t('push-the-service'));
    } catch (e) {
      pushRender(t('push-subscribe-error', { error: e.message }));
      return;
    }
  }
  try {
    await api('/api/push/subscribe', sub.toJSON());
  } catch (e) {
    pushRender(t('push-refused', { error: e.message }));
    return;
  }
  pushOn = true;
  pushRender();
}

async function pushStop() {
  const sub = await currentSubscription();
  if (sub) {
    await api('/api/push/unsubscribe', { endpoint: sub.endpoint });
    await sub.unsubscribe();
  }
  pushOn = false;
  pushRender();
}

async function pushToggle() {
  pushBusy = true;
  pushRender('…');
  try {
    await (pushOn ? pushStop() : pushStart());
  } catch (e) {
    pushRender(t('push-error', { error: e.message }));
  } finally {
    pushBusy = false;
    const b = document.getElementById('push-toggle');
    if (b) b.disabled = !canPush;
  }
}

function toggle() {
  const panel = document.getElementById('notes-panel');
  const open = panel.classList.toggle('hidden') === false;
  document.getElementById('notes-button').setAttribute('aria-expanded', String(open));
  if (open && unread > 0) {
    api('/api/notifications/read', {}).then(() => { unread = 0; items.forEach((i) => { i.read = true; }); render(); }, () => {});
  }
}

/** Puts the notifications in the header of this page and listens for more. */
export function start() {
  const link = document.getElementById('account-link');
  if (!link || document.getElementById('notes-button')) return;
  link.insertAdjacentHTML('beforebegin',
    '<div class="notes"><button id="notes-button" class="notes-button" type="button" aria-haspopup="true" aria-expanded="false" aria-controls="notes-panel" aria-label="' + esc(t('notes')) + '">' +
    BELL + '<span id="notes-count" class="notes-count hidden">0</span></button>' +
    '<div id="notes-panel" class="notes-panel hidden"><h2 class="notes-title">' + esc(t('notes')) + '</h2><ul id="notes-list" class="notes-list"></ul>' +
    '<div class="notes-push"><button id="push-toggle" type="button" aria-pressed="false">' + esc(t('push-start')) + '</button>' +
    '<p id="push-state" class="form-note" role="status"></p></div></div></div>');
  document.getElementById('notes-button').addEventListener('click', toggle);
  document.getElementById('push-toggle').addEventListener('click', pushToggle);
  pushRender();
  pushCheck();
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !document.getElementById('notes-panel').classList.contains('hidden')) toggle();
  });
  render();
  connect();
  // A push of a challenge leads here: the list, where it is answered.
  if (location.hash === '#notifications') toggle();
}
