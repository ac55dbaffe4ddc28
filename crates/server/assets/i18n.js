// The page's words in the reader's language (docs/server.md, "Languages").
// The server puts the chosen language's messages, compiled from its Fluent
// catalog (assets/i18n/<lang>.ftl), into the page as a JSON data block
// (<script type="application/json" id="i18n">): read here at once, nothing
// is fetched. A message is a string with {$var} where a variable goes, or
// an array of such strings and selectors {var, cases, default} (plurals:
// the case is the number's plural category in the language, or its exact
// value).

const block = document.getElementById('i18n');
let data = { lang: 'en', messages: {} };
try { if (block) data = JSON.parse(block.textContent); } catch (_) { /* no words: keys stand */ }

const LANG = data.lang || 'en';
const MESSAGES = data.messages || {};
let plurals;
let numbers;

/** The page's language ('en', 'de', 'fr', 'es'). */
export function lang() { return LANG; }

/** The languages, each by its own name (the header's switcher): the
 *  server's list (i18n.rs, LANGS). */
export const LANGS = Array.isArray(data.langs) && data.langs.length ? data.langs : [['en', 'English']];

/** A number in the language's words (1,5 in German; grouping from 10 000). */
export function num(n) {
  // A whole number under 10 000 is its digits in every language here (and
  // the first Intl.NumberFormat costs a page's load tens of milliseconds).
  if (Number.isInteger(n) && Math.abs(n) < 10000) return String(n);
  if (!numbers) {
    try { numbers = new Intl.NumberFormat(LANG, { maximumFractionDigits: 2, useGrouping: 'min2' }); } catch (_) { numbers = new Intl.NumberFormat(LANG, { maximumFractionDigits: 2, useGrouping: false }); }
  }
  return numbers.format(n);
}

function value(v) { return typeof v === 'number' ? num(v) : String(v ?? ''); }

function render(m, args) {
  if (typeof m === 'string') return m.replace(/\{\$([A-Za-z0-9_-]+)\}/g, (_, k) => value(args[k]));
  if (Array.isArray(m)) return m.map((p) => render(p, args)).join('');
  if (m && m.var) {
    const v = args[m.var];
    let key = String(v);
    if (!(key in m.cases) && typeof v === 'number') {
      if (!plurals) plurals = new Intl.PluralRules(LANG);
      key = plurals.select(v);
    }
    return render(key in m.cases ? m.cases[key] : m.cases[m.default], args);
  }
  return '';
}

/** The message `key` with `args` ({name: value}; numbers are formatted in
 *  the language's way and pick plural forms). An unknown key is itself. */
export function t(key, args) {
  const m = MESSAGES[key];
  return m === undefined ? key : render(m, args || {});
}

/** Sets the language (the cookie the server reads, a year) and reloads. */
export function setLang(l) {
  document.cookie = `chimera_lang=${encodeURIComponent(l)}; Path=/; Max-Age=31536000; SameSite=Lax`;
  location.reload();
}
