// Pointer input (mouse, pen and touch through Pointer Events): click-click
// and drag-and-drop on the board, drag from the pockets. It asks the board
// what may be picked and where it may go, and tells it what was chosen.
import { pieceIcon } from '../pieces.js';

const SLOP = 6; // pixels a press may wander and still be a click

export function bindPointer(board) {
  const svg = board.svg;
  let pendingTarget = null;

  const svgPoint = (e) => {
    const rect = svg.getBoundingClientRect();
    return [((e.clientX - rect.left) / rect.width) * 800, ((e.clientY - rect.top) / rect.height) * 800];
  };

  svg.addEventListener('contextmenu', (e) => e.preventDefault());

  svg.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) {
      // A right click drops the selection and any premove, as on lichess.
      board.unselect();
      board.cancelPremove();
      return;
    }
    e.preventDefault();
    const sq = board.squareAt(e.clientX, e.clientY);
    if (!sq) return;
    board.chooser.hide();
    const sel = board.selected;
    if (sel && board.targets(sel).has(sq)) {
      pendingTarget = sq;
      return;
    }
    pendingTarget = null;
    if (board.canPick(sq)) {
      const wasSelected = !!(sel && sel.sq === sq);
      board.selected = { sq, pre: !board.data.interactive };
      const [x, y] = svgPoint(e);
      board.drag = { from: sq, piece: board.data.pieces[sq], startX: e.clientX, startY: e.clientY, x, y, moving: false, wasSelected };
      try { svg.setPointerCapture(e.pointerId); } catch (_) { /* synthetic events */ }
    } else {
      board.selected = null;
      board.cancelPremove();
    }
    board.redraw();
  });

  svg.addEventListener('pointermove', (e) => {
    const drag = board.drag;
    if (!drag) return;
    if (!drag.moving && Math.hypot(e.clientX - drag.startX, e.clientY - drag.startY) < SLOP) return;
    drag.moving = true;
    [drag.x, drag.y] = svgPoint(e);
    board.redraw();
  });

  svg.addEventListener('pointerup', (e) => {
    const sq = board.squareAt(e.clientX, e.clientY);
    if (pendingTarget) {
      const target = pendingTarget;
      pendingTarget = null;
      if (sq === target) board.complete(board.selected, sq);
      return;
    }
    const drag = board.drag;
    board.drag = null;
    if (!drag) return;
    if (drag.moving) {
      if (sq && board.targets(board.selected).has(sq)) return board.complete(board.selected, sq);
      board.redraw();
      return;
    }
    // A click on the piece already selected deselects it (a pawn that may
    // flip stays selected: its button is under the board).
    if (drag.wasSelected && sq === drag.from && !board.movesFor({ sq }).some((m) => m[2] === 'flip')) {
      board.unselect();
    }
  });

  svg.addEventListener('pointercancel', () => {
    board.drag = null;
    pendingTarget = null;
    board.redraw();
  });

  // Pockets: press on a piece, then click a square or drag onto it.
  let pocketDrag = null;
  let ghost = null;
  board.pickFromPocket = (role, letter, e) => {
    e.preventDefault();
    board.selected = { drop: role };
    pocketDrag = { role, letter, startX: e.clientX, startY: e.clientY, moved: false };
    board.redraw();
  };
  window.addEventListener('pointermove', (e) => {
    if (!pocketDrag) return;
    if (Math.hypot(e.clientX - pocketDrag.startX, e.clientY - pocketDrag.startY) > SLOP) pocketDrag.moved = true;
    if (!pocketDrag.moved) return;
    if (!ghost) {
      ghost = document.createElement('div');
      ghost.className = 'drag-ghost';
      ghost.innerHTML = pieceIcon(pocketDrag.letter, 64);
      document.body.appendChild(ghost);
    }
    ghost.style.left = e.clientX - 32 + 'px';
    ghost.style.top = e.clientY - 32 + 'px';
  });
  // A finger's drag from a pocket would pan the page (and cancel the drag)
  // without touch-action: none on the pocket pieces (style.css).
  window.addEventListener('pointercancel', () => {
    if (!pocketDrag) return;
    pocketDrag = null;
    if (ghost) { ghost.remove(); ghost = null; }
  });
  window.addEventListener('pointerup', (e) => {
    if (!pocketDrag) return;
    const pd = pocketDrag;
    pocketDrag = null;
    if (ghost) { ghost.remove(); ghost = null; }
    if (!pd.moved) return; // a click: the role stays selected
    const sq = board.squareAt(e.clientX, e.clientY);
    if (sq && board.targets({ drop: pd.role }).has(sq)) board.complete({ drop: pd.role }, sq);
    else board.unselect();
  });
}
