// The rules of each variant in the project's own words, with diagrams drawn
// by the same board as the game page (docs/rules/ is the precise text).
import { Board } from './board.js';
import { api, header, esc, t, variantName } from './common.js';

document.getElementById('hdr').innerHTML = header();
const $ = (id) => document.getElementById(id);

const COMMON = `<p>Every variant keeps the ordinary chess board and the ordinary moves of
King, Queen, Rook, Bishop, Knight and Pawn unless it says otherwise. A move that
leaves your own King attacked is never allowed, whatever kind of move it is. A game
ends by checkmate, stalemate (a draw), the third repetition of a position, fifty
moves by each side with no capture, pawn move or placement, or when neither side
can ever mate. On this site those draws are applied automatically.</p>`;

// The variant's rules at a glance come from its own rules page
// (docs/rules/<page>.md, section "At a glance"), through the server.
const meta = await api('/api/meta');
// `/rules` alone shows the first variant's.
const last = decodeURIComponent(location.pathname.replace(/\/+$/, '').split('/').pop());
const v = last === 'rules' ? meta.variants[0].id : last;
// One tab per rules page (both Genie rule sets share one).
const tabs = meta.variants.filter((m, i) => meta.variants.findIndex((x) => x.rules === m.rules) === i);
const here = meta.variants.find((m) => m.id === v);
let r;
try { r = here ? await api('/api/rules/' + encodeURIComponent(v)) : null; } catch (_) { r = null; }
$('tabs').innerHTML = tabs
  .map((k) => `<a href="/rules/${k.id}"><button${here && k.rules === here.rules ? ' class="primary"' : ''}>${esc(variantName(k.name))}</button></a>`).join(' ') +
  (here ? ` <a href="/?variant=${encodeURIComponent(v)}"><button>${esc(t('rules-play', { variant: variantName(here.name) }))}</button></a>` : '');
if (!r) {
  document.title = t('novariant-title');
  $('text').innerHTML = `<h2>${esc(t('rules-no-variant', { variant: v }))}</h2><p>${esc(t('rules-chimera-plays'))} ${meta.variants.map((k) => `<a href="/rules/${k.id}">${esc(variantName(k.name))}</a>`).join(', ')}.</p>`;
  $('diagrams-title').classList.add('hidden');
} else {
  document.title = t('rules-title-of', { variant: variantName(here.name) });
  // The rules themselves are in English (docs/rules/), the page around them in the reader's language.
  $('text').innerHTML = `<h2>${esc(variantName(here.name))}</h2><div lang="en">` + r.html + COMMON + '</div>' +
    `<p class="full-rules"><a href="${here.rules}">${esc(t('rules-complete', { variant: variantName(here.name) }))}</a>${esc(t('rules-complete-about'))}</p>`;
  // Shown with the text, not before it: a title that waited above an empty
  // article would be pushed down when the text came.
  $('diagrams-title').classList.remove('hidden');
  drawDiagrams(r.diagrams);
}

// Each diagram is drawn from the server's reading of its FEN (and moves), so
// rings, tainted pawns, hands and reserves come from the rules, not the text.
// One board a task: the page answers input between two (each is appended
// below the last, so nothing above it moves).
async function drawDiagrams(diagrams) {
  for (const [i, { fen, caption, moves, gallery }] of diagrams.entries()) {
    if (i > 0) await new Promise((done) => setTimeout(done, 0));
    const d = document.createElement('div');
    d.className = 'diagram';
    const pt = document.createElement('div');
    pt.className = 'pocket empty';
    const holder = document.createElement('div');
    const pb = document.createElement('div');
    pb.className = 'pocket empty';
    const c = document.createElement('div');
    c.className = 'caption';
    c.textContent = caption;
    d.append(pt, holder, pb, c);
    $('diagrams').appendChild(d);
    const b = new Board(holder, { pockets: { top: pt, bottom: pb } });
    // The piece gallery is no position of any variant (Genie and Clown
    // together): drawn from its placement alone.
    if (gallery) {
      b.set({ fen, legal: {}, interactive: false, turn: 'w' });
      continue;
    }
    api('/api/position', { variant: v, fen, moves }).then((pos) => {
      const h = pos.history[pos.history.length - 1];
      const last = h ? { from: h.uci.includes('@') ? h.uci.slice(2, 4) : h.uci.slice(0, 2), to: h.uci.slice(2, 4) } : null;
      b.set({ board: pos.board, pockets: pos.pockets, state: pos.state, state_lines: pos.state_lines, pocket_name: pos.pocket_name,
        legal: {}, interactive: false, turn: pos.turn, check: pos.check, last, variant: v });
    }).catch((e) => { c.textContent = caption + ' ' + t('rules-diagram-unavailable', { error: e.message }); });
  }
}
