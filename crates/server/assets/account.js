// The account page (/account): who, since when; password; log out (here or
// everywhere); the account's data; deleting it. Logged out: to /login.
import { api, header, account, rememberAccount, flash, esc } from './common.js';
import { passwordProblem, showError, markField, busy } from './forms.js';

document.getElementById('hdr').innerHTML = header();
const $ = (id) => document.getElementById(id);
let me = null;

/** A time from the server (Unix seconds or milliseconds, or a date text)
 *  as a date in the reader's words. */
function when(t) {
  const d = new Date(typeof t === 'number' ? (t < 1e12 ? t * 1000 : t) : t);
  if (Number.isNaN(d.getTime())) return String(t ?? '');
  return d.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
}

account().then((a) => {
  if (!a) { location.replace('/login?next=/account'); return; }
  me = a;
  $('account-name').textContent = a.username;
  $('account-since').textContent = when(a.created_at);
  $('account-main').setAttribute('aria-busy', 'false');
  loadTokens();
}, (e) => showError($('account-error'), `Your account could not be read: ${e.message}`));

// ----- API tokens -----
async function loadTokens() {
  let list;
  try {
    list = (await api('/api/account/tokens')).tokens;
  } catch (e) {
    showError($('token-error'), `Your tokens could not be read: ${e.message}`);
    return;
  }
  const live = list.filter((t) => !t.revokedAt);
  $('token-table').classList.toggle('hidden', live.length === 0);
  $('token-none').classList.toggle('hidden', live.length > 0);
  $('token-rows').innerHTML = live.map((t) =>
    `<tr><td>${esc(t.description)}</td><td>${t.scopes.map((s) => `<code>${esc(s)}</code>`).join(' ')}</td>` +
    `<td>${esc(when(t.createdAt))}</td><td>${t.usedAt ? esc(when(t.usedAt)) : 'never'}</td>` +
    `<td><button type="button" class="danger token-revoke" data-id="${esc(t.id)}" aria-label="Revoke ${esc(t.description)}">Revoke</button></td></tr>`).join('');
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
  if (!description) { showError($('token-error'), 'Say what the token is for.'); $('token-description').focus(); return; }
  if (!scopes.length) { showError($('token-error'), 'Tick at least one thing the token may do.'); return; }
  showError($('token-error'), '');
  busy(form, true);
  try {
    const t = await api('/api/account/tokens', { description, scopes });
    $('token-value').textContent = t.token;
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
    () => { $('token-copy').textContent = 'Copied'; },
    () => { $('token-copy').textContent = 'Select and copy it'; });
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
      ? `Logged out everywhere${typeof n === 'number' ? ` (${n} session${n === 1 ? '' : 's'} ended)` : ''}.`
      : 'Logged out.');
  } catch (e) {
    button.disabled = false;
    if (e.status === 401) { leave('You were logged out already.'); return; }
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
    current: pw.current.value ? '' : 'Enter your current password.',
    neu: passwordProblem(pw.neu.value, me ? me.username : ''),
    again: pw.again.value === pw.neu.value ? '' : 'The two new passwords differ.',
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
    $('pw-done').textContent = 'Password changed. Your other sessions are logged out; this one goes on.';
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
  if (!password) { showError(err, 'Enter your password to delete the account.'); $('delete-password').focus(); return; }
  if (!$('delete-confirm').checked) { showError(err, 'Tick the box to confirm that the account is to be deleted.'); $('delete-confirm').focus(); return; }
  showError(err, '');
  busy(form, true);
  try {
    await api('/api/account/delete', { password });
    leave('Your account is deleted. Its games stay, without your name.');
  } catch (ex) {
    busy(form, false);
    showError(err, ex.message);
  }
});
$('delete-confirm').addEventListener('change', () => { if ($('delete-confirm').checked) markField($('delete-confirm'), ''); });
