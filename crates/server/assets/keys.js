// Keyboard navigation, as on lichess: ← → a move back or on, Home/End (and
// ↑ ↓ in a game) to the first or last position, f to flip the board, Esc to
// drop a selection or premove. Keys typed into a form field are left alone.

const KEYS = {
  ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last',
  ArrowUp: 'up', ArrowDown: 'down', f: 'flip', F: 'flip', Escape: 'escape',
};

/**
 * actions: { prev, next, first, last, up, down, flip, escape }, each a
 * function; `up` and `down` default to `first` and `last`.
 */
export function bindKeys(actions) {
  const table = { up: actions.first, down: actions.last, ...actions };
  document.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && t.closest && t.closest('input, textarea, select, [contenteditable]')) return;
    const action = table[KEYS[e.key]];
    if (!action) return;
    e.preventDefault();
    action();
  });
}
