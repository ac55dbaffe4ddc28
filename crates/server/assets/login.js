// The log-in page (/login): log in, or create an account. Both go on to
// ?next= (a path of this site) afterwards, else to the lobby.
import { api, header, account, rememberAccount, storedTokens, flash, t } from './common.js';
import { usernameProblem, passwordProblem, showError, markField, busy, safeNext } from './forms.js';

document.getElementById('hdr').innerHTML = header();
const $ = (id) => document.getElementById(id);
const next = safeNext(new URLSearchParams(location.search).get('next'));

function done(username) {
  rememberAccount(username);
  location.replace(next);
}

// Already logged in: say so (logging in again switches account).
account().then((a) => {
  if (!a) return;
  const p = $('auth-already');
  p.textContent = t('login-already', { name: a.username }) + ' ';
  const link = document.createElement('a');
  link.href = next === '/' ? '/account' : next;
  link.textContent = next === '/' ? t('login-go-account') : t('login-go-on');
  p.append(link, t('login-or-else'));
  p.classList.remove('hidden');
}, () => {});

// ----- Log in -----
let waitUntil = 0;
let waitTimer = null;
$('login-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const form = $('login-form');
  const err = $('login-error');
  const username = $('login-username').value.trim();
  const password = $('login-password').value;
  if (Date.now() < waitUntil) {
    showError(err, t('login-too-many', { s: Math.ceil((waitUntil - Date.now()) / 1000) }));
    return;
  }
  markField($('login-username'), !username);
  markField($('login-password'), !password);
  if (!username || !password) {
    showError(err, !username ? t('login-enter-username') : t('login-enter-password'));
    (!username ? $('login-username') : $('login-password')).focus();
    return;
  }
  showError(err, '');
  busy(form, true);
  try {
    const r = await api('/api/account/login', { username, password });
    done(r.username || username);
  } catch (ex) {
    busy(form, false);
    let msg = ex.message;
    if (ex.status === 429 && ex.retryAfter) {
      // Throttled: the button waits as long as the server asks.
      waitUntil = Date.now() + ex.retryAfter * 1000;
      if (!/\d/.test(msg)) msg = `${msg.replace(/[.!]?$/, '.')} ${t('login-try-again-in', { s: ex.retryAfter })}`;
      $('login-submit').disabled = true;
      clearTimeout(waitTimer);
      waitTimer = setTimeout(() => { $('login-submit').disabled = false; }, Math.min(ex.retryAfter, 3600) * 1000);
    }
    showError(err, msg);
    if (ex.status === 401) $('login-password').select();
  }
});

// ----- Create an account -----
const su = { user: $('signup-username'), pw: $('signup-password'), pw2: $('signup-password2') };
const touched = new Set();
function signupProblems() {
  const u = su.user.value.trim();
  return {
    user: usernameProblem(u),
    pw: passwordProblem(su.pw.value, usernameProblem(u) ? '' : u),
    pw2: su.pw2.value === su.pw.value ? '' : t('login-passwords-differ'),
  };
}
// The hints turn into the field's problem once the field was left (or the
// form sent), and back as soon as it is fixed.
function checkFields() {
  const p = signupProblems();
  for (const k of Object.keys(su)) if (touched.has(k)) markField(su[k], p[k]);
  return p;
}
for (const k of Object.keys(su)) {
  su[k].addEventListener('blur', () => { if (su[k].value) { touched.add(k); checkFields(); } });
  su[k].addEventListener('input', checkFields);
}

$('signup-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const form = $('signup-form');
  const err = $('signup-error');
  for (const k of Object.keys(su)) touched.add(k);
  const p = checkFields();
  const bad = Object.keys(su).find((k) => p[k]);
  if (bad) {
    showError(err, p[bad]);
    su[bad].focus();
    return;
  }
  showError(err, '');
  busy(form, true);
  const username = su.user.value.trim();
  try {
    const body = { username, password: su.pw.value };
    const claim = storedTokens();
    if (claim.length) body.claim = claim;
    const r = await api('/api/account/signup', body);
    const n = r.claimed || 0;
    flash(t('login-welcome', { name: r.username || username }) + (n ? ' ' + t('login-claimed', { n }) : ''));
    done(r.username || username);
  } catch (ex) {
    busy(form, false);
    showError(err, ex.message);
  }
});

// Straight to the sign-up form on a link to it (and on a phone, where it is
// below the log-in form).
$('to-signup').addEventListener('click', (e) => {
  e.preventDefault();
  $('signup-panel').scrollIntoView({ block: 'start' });
  su.user.focus({ preventScroll: true });
});
if (location.hash === '#signup') su.user.focus();
