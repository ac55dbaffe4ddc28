// Lesson progress: the step keys (variant/lesson/n) finished, kept in this
// browser's storage and, for a logged-in player, in the account
// (GET/POST /api/account/learn). A logged-in page merges the two: what
// the browser finished before logging in goes to the account, and the
// account's steps are shown here.
import { api, account } from './common.js';

const KEY = 'chimera.learn.done';

function local() {
  try { return new Set(JSON.parse(localStorage.getItem(KEY) || '[]')); } catch (_) { return new Set(); }
}

function save(set) {
  try { localStorage.setItem(KEY, JSON.stringify([...set].sort())); } catch (_) { /* storage refused: the account keeps it */ }
}

/** The finished steps: this browser's at once, then merged with the account's. */
export async function loadProgress() {
  const done = local();
  let a = null;
  try { a = await account(); } catch (_) { a = null; }
  if (!a) return done;
  try {
    const server = await api('/api/account/learn');
    const missing = [...done].filter((k) => !server.done.includes(k));
    const all = missing.length ? (await api('/api/account/learn', { done: missing })).done : server.done;
    all.forEach((k) => done.add(k));
    save(done);
  } catch (_) { /* the account's copy is out of reach: this browser's stands */ }
  return done;
}

/** Marks a step finished, here and in the account when logged in. */
export async function markDone(done, key) {
  done.add(key);
  save(done);
  let a = null;
  try { a = await account(); } catch (_) { a = null; }
  if (a) api('/api/account/learn', { done: [key] }).catch(() => {});
}
