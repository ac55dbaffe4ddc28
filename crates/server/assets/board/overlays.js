// The HTML around and over the SVG: the chooser (several moves to one
// square), the hint line (special-move buttons and notes), the variant
// state in words and the pockets. Each redraws only when its content changes.
import { pieceIcon, ROLE_NAMES } from '../pieces.js';
import { t } from '../i18n.js';
import { ACTION_MOVES, CHOICE_LABELS, MOVE_NOTES } from './variants.js';

/**
 * The chooser. It opens where the finger or pointer just was, so the tap
 * that opened it must not pick an option: a button acts only on a click
 * whose press began on that button after the chooser opened (or on a
 * keyboard click, which has no press).
 */
export class Chooser {
  constructor(root) {
    this.el = document.createElement('div');
    this.el.className = 'chooser hidden';
    this.el.setAttribute('role', 'dialog');
    root.appendChild(this.el);
    this.pressed = null;
    this.el.addEventListener('pointerdown', (e) => {
      this.pressed = e.target.closest('button');
      e.stopPropagation();
    });
  }

  get open() {
    return !this.el.classList.contains('hidden');
  }

  hide() {
    this.el.classList.add('hidden');
    this.el.innerHTML = '';
    this.pressed = null;
  }

  /** options: [{ uci, html, title, cls, act }] */
  show(options) {
    this.pressed = null;
    this.el.innerHTML = `<div class="chooser-title">${t('chooser-title')}</div>`;
    for (const o of options) {
      const b = document.createElement('button');
      if (o.uci) b.dataset.uci = o.uci;
      if (o.cls) b.className = o.cls;
      if (o.title) b.title = o.title;
      b.innerHTML = o.html;
      b.addEventListener('click', (e) => {
        // e.detail is 0 for a keyboard "click" (Enter, Space).
        if (e.detail !== 0 && this.pressed !== b) return;
        this.hide();
        o.act();
      });
      this.el.appendChild(b);
    }
    this.el.classList.remove('hidden');
  }
}

/** The chooser's options for moves to one square. */
export function choiceOptions(ms, turn, play, cancel) {
  const opts = ms.map((m) => {
    const label = CHOICE_LABELS[m[2]] ? CHOICE_LABELS[m[2]](m, turn) : { icon: '', title: m[1] };
    return { uci: m[0], title: label.title, html: `${label.icon}<span class="san">${m[1]}</span>`, act: () => play(m[0]) };
  });
  opts.push({ cls: 'cancel', html: t('cancel'), act: cancel });
  return opts;
}

/** Special-move buttons and notes for the selection, under the board. */
export function renderHint(box, d, sel, moves, play, premove) {
  if (!box) return;
  const key = JSON.stringify([sel, moves, d.variant, d.turn, premove]);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.innerHTML = '';
  if (!sel && premove) {
    const p = document.createElement('span');
    p.className = 'hint-text premove-note';
    p.textContent = t('premove-waits', { from: premove.from, to: premove.to });
    box.appendChild(p);
    return;
  }
  if (!sel) return;
  for (const m of moves) {
    const label = ACTION_MOVES[m[2]];
    if (!label) continue;
    const b = document.createElement('button');
    b.className = 'action';
    b.dataset.uci = m[0];
    b.innerHTML = label(m, d.turn);
    b.addEventListener('click', () => play(m[0]));
    box.appendChild(b);
  }
  const kinds = new Set(moves.map((m) => m[2]));
  const notes = [];
  if (sel.drop) notes.push(d.pocket_note || t('board-place-piece'));
  if (sel.pre) notes.push(t('premove-note'));
  for (const [kind, note] of Object.entries(MOVE_NOTES)) if (kinds.has(kind)) notes.push(note);
  if (notes.length) {
    const p = document.createElement('span');
    p.className = 'hint-text';
    p.textContent = notes.join(' ');
    box.appendChild(p);
  }
}

/** The variant state in words, one sentence a line (the server's words). */
export function renderInfo(box, d) {
  const parts = d.state_lines;
  const key = JSON.stringify(parts);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.innerHTML = '';
  box.classList.toggle('hidden', parts.length === 0);
  for (const p of parts) {
    const div = document.createElement('div');
    div.textContent = p;
    box.appendChild(div);
  }
}

/**
 * Pockets (Genesis reserve, Clown hand) above and below the board.
 * `pick(role, letter, event)` is called on a press on a piece that may be placed.
 */
export function renderPockets(slots, d, orientation, selected, name, pick) {
  if (!slots) return;
  const drops = d.interactive ? d.legal['@'] || [] : [];
  const dropRoles = new Set(drops.map((m) => m[0][0]));
  const mine = d.turn;
  const sides = orientation === 'w' ? { bottom: 'w', top: 'b' } : { bottom: 'b', top: 'w' };
  for (const [where, color] of Object.entries(sides)) {
    const box = slots[where];
    if (!box) continue;
    const counts = { ...(d.pockets[color] || {}) };
    if (color === mine) for (const r of dropRoles) if (!counts[r]) counts[r] = 0;
    const roles = 'KQGRBCNP'.split('').filter((r) => counts[r] !== undefined);
    const sel = selected && selected.drop;
    const whyOf = (r) => (!d.interactive || (color === mine && dropRoles.has(r)) ? '' : (d.pocket_why[color] || {})[r] || '');
    const key = JSON.stringify([color, roles.map((r) => [r, counts[r], color === mine && dropRoles.has(r), whyOf(r)]), sel, name]);
    if (box.dataset.key === key) continue;
    box.dataset.key = key;
    box.innerHTML = '';
    box.classList.toggle('empty', roles.length === 0);
    if (!roles.length) continue;
    const label = document.createElement('div');
    label.className = 'pocket-label';
    label.textContent = (d.pocket_name || name || t('board-reserve')) + ' — ' + (color === 'w' ? t('white') : t('black'));
    box.appendChild(label);
    const whys = new Set();
    for (const r of roles) {
      const letter = color === 'w' ? r : r.toLowerCase();
      const b = document.createElement('button');
      const can = color === mine && dropRoles.has(r);
      b.className = 'pocket-piece' + (can ? ' can' : '') + (sel === r && can ? ' selected' : '');
      b.dataset.dropRole = r;
      b.dataset.color = color;
      const why = whyOf(r);
      if (why) whys.add(why);
      b.title = ROLE_NAMES[r] + (can ? t('board-drop-title') : why ? ': ' + why : '');
      b.innerHTML = pieceIcon(letter, 40) + (counts[r] ? `<span class="count">${counts[r]}</span>` : '');
      b.disabled = !can;
      if (can) b.addEventListener('pointerdown', (e) => pick(r, letter, e));
      box.appendChild(b);
    }
    // Why the greyed pieces may not come in now, in words (a phone has no
    // hover for the title).
    if (whys.size) {
      const w = document.createElement('div');
      w.className = 'pocket-why';
      w.textContent = [...whys].join(' ');
      box.appendChild(w);
    }
  }
}
