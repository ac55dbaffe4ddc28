// The look of the site: light or dark (or the system's choice), the board's
// colours and the piece set, and the screen-reader mode (`blind`: on or off,
// as lichess's blind mode; the game page reads it, blind.js). A classic script in every page's <head>, so
// that the page is drawn in the chosen look from its first paint (no flash
// of the other theme, nothing redrawn). The choice is kept in this browser
// (localStorage 'chimera.prefs'), and for a logged-in player also in the
// account (common.js sends it; a page where the account's differs takes it).
(function () {
  'use strict';
  var KEY = 'chimera.prefs';
  var CHOICES = {
    theme: ['system', 'dark', 'light'],
    board: ['brown', 'blue', 'green', 'grey'],
    pieces: ['classic', 'disc'],
    blind: ['off', 'on'],
  };
  var DEFAULTS = { theme: 'system', board: 'brown', pieces: 'classic', blind: 'off' };
  var dark = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;

  /** The choices kept, each valid (an unknown value is its default). */
  function clean(p) {
    var out = {};
    for (var k in DEFAULTS) out[k] = p && CHOICES[k].indexOf(p[k]) >= 0 ? p[k] : DEFAULTS[k];
    return out;
  }

  function read() {
    try { return clean(JSON.parse(localStorage.getItem(KEY) || '{}')); } catch (_) { return clean({}); }
  }

  function apply(p) {
    var root = document.documentElement;
    var theme = p.theme === 'system' ? (dark && !dark.matches ? 'light' : 'dark') : p.theme;
    root.dataset.theme = theme;
    root.dataset.board = p.board;
    root.dataset.pieces = p.pieces;
    root.dataset.blind = p.blind;
    var meta = document.querySelector('meta[name="theme-color"]');
    if (meta) meta.content = theme === 'light' ? '#f4f3f1' : '#161512';
  }

  /** Keeps `p` in this browser and shows it; pages that draw pieces hear
   *  'chimera:prefs' and redraw. */
  function save(p) {
    p = clean(p);
    try { localStorage.setItem(KEY, JSON.stringify(p)); } catch (_) { /* storage refused: this page only */ }
    apply(p);
    window.dispatchEvent(new CustomEvent('chimera:prefs', { detail: p }));
    return p;
  }

  apply(read());
  // "System": follow the system's scheme as it changes.
  if (dark && dark.addEventListener) dark.addEventListener('change', function () { apply(read()); });
  // Another tab chose: this one follows.
  window.addEventListener('storage', function (e) {
    if (e.key !== KEY) return;
    var p = read();
    apply(p);
    window.dispatchEvent(new CustomEvent('chimera:prefs', { detail: p }));
  });
  window.chimeraPrefs = { CHOICES: CHOICES, DEFAULTS: DEFAULTS, read: read, save: save, clean: clean };
})();
