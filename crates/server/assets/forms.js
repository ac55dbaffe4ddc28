import { t } from './i18n.js';

// The account forms' shared parts: the username and password rules (as the
// server checks them: it has the last word, and its error text is always
// shown), the error line, the busy state.

/** What is wrong with a username for a new account, or ''. */
export function usernameProblem(u) {
  if (!u) return t('form-choose-username');
  if (u.length < 2 || u.length > 20) return t('form-username-length');
  if (/[^A-Za-z0-9_-]/.test(u)) return t('form-username-chars');
  if (!/^[A-Za-z]/.test(u)) return t('form-username-start');
  if (!/[A-Za-z0-9]$/.test(u)) return t('form-username-end');
  if (/[_-]{2}/.test(u)) return t('form-username-double');
  return '';
}

/** What is wrong with a new password (for the account `username`), or ''.
 *  Whether it is too common only the server can say. */
export function passwordProblem(p, username) {
  const n = [...p].length;
  if (n < 8) return t('form-password-short');
  if (n > 128) return t('form-password-long');
  if (username && p.toLowerCase().includes(username.toLowerCase())) return t('form-password-username');
  return '';
}

/** Shows `msg` in a form's error line (role="alert": read out as it
 *  appears); '' clears it. */
export function showError(el, msg) {
  el.textContent = '';
  // Emptied first, so that the same message given twice is read out again.
  if (msg) setTimeout(() => { el.textContent = msg; }, 30);
}

/** Marks a field as wrong (with its hint saying why) or right again. */
export function markField(input, problem) {
  const hint = input.getAttribute('aria-describedby') ? document.getElementById(input.getAttribute('aria-describedby')) : null;
  if (problem) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
  if (!hint) return;
  if (hint.dataset.rule === undefined) hint.dataset.rule = hint.textContent;
  hint.textContent = problem || hint.dataset.rule;
  hint.classList.toggle('bad', !!problem);
}

/** A form waiting for the server: its submit button off (no double sends). */
export function busy(form, on) {
  form.setAttribute('aria-busy', on ? 'true' : 'false');
  for (const b of form.querySelectorAll('button[type=submit]')) b.disabled = on;
}

/** Where to go after logging in: `next` when it is a path of this site
 *  ("/game/abc", not "//evil.example" or "/\evil.example"), else "/". */
export function safeNext(next) {
  if (!next || next[0] !== '/' || next[1] === '/' || next[1] === '\\' || /[\u0000-\u001f\\]/.test(next)) return '/';
  try {
    const u = new URL(next, location.origin);
    if (u.origin !== location.origin || u.pathname === '/login') return '/';
    return u.pathname + u.search + u.hash;
  } catch (_) { return '/'; }
}
