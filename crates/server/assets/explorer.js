// The opening explorer's panel on the analysis board (docs/server.md,
// "Opening explorer"): the moves played from the board's position in stored
// games, most played first, for people's rated games or for the engines'
// and the lab's games, with how those games ended. A move's button plays it.

import { t } from './i18n.js';

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const SOURCES = { people: 'ex-people', engines: 'ex-engines' };

export class Explorer {
  constructor(panel, onPlay) {
    this.panel = panel;
    this.body = panel.querySelector('.ex-body');
    this.onPlay = onPlay;
    this.source = localStorage.getItem('chimera.explorer') === 'engines' ? 'engines' : 'people';
    this.data = null;
    this.seq = 0;
    for (const [s, id] of Object.entries(SOURCES)) {
      panel.querySelector('#' + id).addEventListener('click', () => {
        this.source = s;
        localStorage.setItem('chimera.explorer', s);
        this.render();
      });
    }
    this.body.addEventListener('click', (ev) => {
      const b = ev.target.closest('button[data-uci]');
      if (b) this.onPlay(b.dataset.uci);
    });
  }

  /** Shows the moves from the position of `req` ({variant, options, fen,
   *  moves}); null empties the panel. */
  async show(req) {
    const my = ++this.seq;
    if (!req) { this.data = null; this.render(); return; }
    const q = new URLSearchParams({ variant: req.variant });
    const rules = Object.entries(req.options || {}).map(([k, v]) => `${k}=${v}`).join(',');
    if (rules) q.set('rules', rules);
    if (req.fen) q.set('fen', req.fen);
    if (req.moves.length) q.set('play', req.moves.join(','));
    try {
      const r = await fetch('/api/explorer?' + q);
      const d = await r.json();
      if (my !== this.seq) return;
      this.data = r.ok ? d : { error: d.error || r.statusText };
    } catch (e) {
      if (my !== this.seq) return;
      this.data = { error: e.message };
    }
    this.render();
  }

  render() {
    for (const [s, id] of Object.entries(SOURCES)) {
      this.panel.querySelector('#' + id).setAttribute('aria-selected', String(s === this.source));
    }
    const b = this.body;
    b.textContent = '';
    const d = this.data;
    if (!d) return;
    if (d.error) { b.textContent = d.error; return; }
    const src = d[this.source];
    if (!src || !src.moves.length) {
      const p = document.createElement('p');
      p.className = 'ex-none';
      p.textContent = t('explorer-none');
      b.append(p);
      return;
    }
    const table = document.createElement('table');
    table.className = 'ex-table';
    table.innerHTML = `<thead><tr><th scope="col">${esc(t('explorer-move'))}</th><th scope="col">${esc(t('games'))}</th><th scope="col">${esc(t('explorer-wdb'))}</th></tr></thead>`;
    const tbody = document.createElement('tbody');
    for (const m of src.moves) tbody.append(row(m));
    const total = { san: 'Σ', white: src.white, draws: src.draws, black: src.black };
    tbody.append(row(total));
    table.append(tbody);
    b.append(table);
  }
}

function row(m) {
  const tr = document.createElement('tr');
  const n = m.white + m.draws + m.black;
  const td1 = document.createElement('td');
  if (m.uci) {
    const btn = document.createElement('button');
    btn.type = 'button';
    btn.className = 'linkish';
    btn.dataset.uci = m.uci;
    btn.textContent = m.san;
    btn.title = t('play-move', { move: m.san });
    td1.append(btn);
  } else td1.textContent = m.san;
  const td2 = document.createElement('td');
  td2.textContent = String(n);
  const td3 = document.createElement('td');
  const bar = document.createElement('div');
  bar.className = 'ex-bar';
  const pct = (k) => (n ? Math.round((100 * k) / n) : 0);
  for (const [cls, k, who] of [['w', m.white, 'explorer-white-wins'], ['d', m.draws, 'explorer-draws'], ['b', m.black, 'explorer-black-wins']]) {
    const s = document.createElement('span');
    s.className = cls;
    s.style.width = (n ? (100 * k) / n : 0) + '%';
    if (pct(k) >= 12) s.textContent = pct(k) + '%';
    s.title = who === 'explorer-white-wins' ? t('explorer-white-wins', { n: k }) : who === 'explorer-draws' ? t('explorer-draws', { n: k }) : t('explorer-black-wins', { n: k });
    bar.append(s);
  }
  bar.setAttribute('aria-label', t('explorer-bar', { w: pct(m.white), d: pct(m.draws), b: pct(m.black) }));
  bar.setAttribute('role', 'img');
  td3.append(bar);
  tr.append(td1, td2, td3);
  return tr;
}
