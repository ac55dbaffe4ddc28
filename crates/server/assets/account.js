// The account page (/account): who, since when; password; log out (here or
// everywhere); the account's data; deleting it. Logged out: to /login.
import { api, header, account, rememberAccount, flash, esc, t, lang } from './common.js';
import { passwordProblem, showError, markField, busy } from './forms.js';

document.getElementById('hdr').innerHTML = header();
const $ = (id) => document.getElementById(id);
let me = null;

/** A time from the server (Unix seconds or milliseconds, or a date text)
 *  as a date in the reader's words. */
function when(x) {
  const d = new Date(typeof x === 'number' ? (x < 1e12 ? x * 1000 : x) : x);
  if (Number.isNaN(d.getTime())) return String(x ?? '');
  return d.toLocaleDateString(lang(), { year: 'numeric', month: 'long', day: 'numeric' });
}

account().then((a) => {
  if (!a) { location.replace('/login?next=/account'); return; }
  me = a;
  $('account-name').textContent = a.username;
  $('account-since').textContent = when(a.created_at);
  $('account-main').setAttribute('aria-busy', 'false');
  loadTokens();
}, (e) => showError($('account-error'), t('account-read-error', { error: e.message })));

// ----- API tokens -----
async function loadTokens() {
  let list;
  try {
    list = (await api('/api/account/tokens')).tokens;
  } catch (e) {
    showError($('token-error'), t('account-tokens-error', { error: e.message }));
    return;
  }
  const live = list.filter((k) => !k.revokedAt);
  $('token-table').classList.toggle('hidden', live.length === 0);
  $('token-none').classList.toggle('hidden', live.length > 0);
  $('token-rows').innerHTML = live.map((k) =>
    `<tr><td>${esc(k.description)}</td><td>${k.scopes.map((s) => `<code>${esc(s)}</code>`).join(' ')}</td>` +
    `<td>${esc(when(k.createdAt))}</td><td>${k.usedAt ? esc(when(k.usedAt)) : esc(t('account-never'))}</td>` +
    `<td><button type="button" class="danger token-revoke" data-id="${esc(k.id)}" aria-label="${esc(t('account-revoke-label', { token: k.description }))}">${esc(t('account-revoke'))}</button></td></tr>`).join('');
}
$('token-rows').addEventListener('click', async (e) => {
  const b = e.target.closest('.token-revoke');
  if (!b) return;
  b.disabled = true;
  try {
    await api(`/api/account/tokens/${encodeURIComponent(b.dataset.id)}/revoke`, {});
    $('token-new').classList.add('hidden');
    await loadTokens();
  } catch (ex) {
    b.disabled = false;
    showError($('token-error'), ex.message);
  }
});
$('token-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const form = $('token-form');
  const description = $('token-description').value.trim();
  const scopes = [...form.querySelectorAll('.scopes input:checked')].map((i) => i.value);
  markField($('token-description'), !description);
  if (!description) { showError($('token-error'), t('account-token-say')); $('token-description').focus(); return; }
  if (!scopes.length) { showError($('token-error'), t('account-token-tick')); return; }
  showError($('token-error'), '');
  busy(form, true);
  try {
    const made = await api('/api/account/tokens', { description, scopes });
    $('token-value').textContent = made.token;
    $('token-new').classList.remove('hidden');
    form.reset();
    await loadTokens();
  } catch (ex) {
    showError($('token-error'), ex.message);
  } finally {
    busy(form, false);
  }
});
$('token-copy').addEventListener('click', () => {
  navigator.clipboard.writeText($('token-value').textContent).then(
    () => { $('token-copy').textContent = t('account-copied'); },
    () => { $('token-copy').textContent = t('account-copy-by-hand'); });
});

/** Gone from here (logged out, or deleted): the header forgets the name. */
function leave(msg) {
  rememberAccount(null);
  if (msg) flash(msg);
  location.replace('/');
}

// ----- Log out -----
async function logout(path, button) {
  showError($('logout-error'), '');
  button.disabled = true;
  try {
    const r = await api(path, {});
    const n = r && r.ended;
    leave(path.endsWith('everywhere')
      ? (typeof n === 'number' ? t('account-logged-out-all-n', { n }) : t('account-logged-out-all'))
      : t('account-logged-out'));
  } catch (e) {
    button.disabled = false;
    if (e.status === 401) { leave(t('account-logged-out-already')); return; }
    showError($('logout-error'), e.message);
  }
}
$('logout').addEventListener('click', () => logout('/api/account/logout', $('logout')));
$('logout-all').addEventListener('click', () => logout('/api/account/logout-everywhere', $('logout-all')));

// ----- Change password -----
const pw = { current: $('pw-current'), neu: $('pw-new'), again: $('pw-new2') };
let pwTried = false;
function pwProblems() {
  return {
    current: pw.current.value ? '' : t('account-enter-current'),
    neu: passwordProblem(pw.neu.value, me ? me.username : ''),
    again: pw.again.value === pw.neu.value ? '' : t('account-new-differ'),
  };
}
function pwCheck() {
  const p = pwProblems();
  if (pwTried) for (const k of Object.keys(pw)) markField(pw[k], p[k]);
  return p;
}
for (const k of Object.keys(pw)) pw[k].addEventListener('input', pwCheck);

$('password-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const form = $('password-form');
  pwTried = true;
  $('pw-done').textContent = '';
  const p = pwCheck();
  const bad = Object.keys(pw).find((k) => p[k]);
  if (bad) { showError($('pw-error'), p[bad]); pw[bad].focus(); return; }
  showError($('pw-error'), '');
  busy(form, true);
  try {
    await api('/api/account/password', { current: pw.current.value, new: pw.neu.value });
    form.reset();
    pwTried = false;
    for (const k of Object.keys(pw)) markField(pw[k], '');
    $('pw-done').textContent = t('account-password-changed');
  } catch (ex) {
    showError($('pw-error'), ex.message);
  } finally {
    busy(form, false);
  }
});

// ----- Delete the account -----
$('delete-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const form = $('delete-form');
  const err = $('delete-error');
  const password = $('delete-password').value;
  markField($('delete-password'), !password);
  markField($('delete-confirm'), !$('delete-confirm').checked);
  if (!password) { showError(err, t('account-delete-enter')); $('delete-password').focus(); return; }
  if (!$('delete-confirm').checked) { showError(err, t('account-delete-tick')); $('delete-confirm').focus(); return; }
  showError(err, '');
  busy(form, true);
  try {
    await api('/api/account/delete', { password });
    leave(t('account-deleted'));
  } catch (ex) {
    busy(form, false);
    showError(err, ex.message);
  }
});
$('delete-confirm').addEventListener('change', () => { if ($('delete-confirm').checked) markField($('delete-confirm'), ''); });
