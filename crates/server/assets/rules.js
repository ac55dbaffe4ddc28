// The rules of each variant in the project's own words, with diagrams drawn
// by the same board as the game page (docs/rules/ is the precise text).
import { Board } from './board.js';
import { api, header } from './common.js';

document.getElementById('hdr').innerHTML = header();
const $ = (id) => document.getElementById(id);

const COMMON = `<p>Every variant keeps the ordinary chess board and the ordinary moves of
King, Queen, Rook, Bishop, Knight and Pawn unless it says otherwise. A move that
leaves your own King attacked is never allowed, whatever kind of move it is. A game
ends by checkmate, stalemate (a draw), the third repetition of a position, fifty
moves by each side with no capture, pawn move or placement, or when neither side
can ever mate. On this site those draws are applied automatically.</p>`;

const RULES = {
  chess: {
    name: 'Chess',
    html: `<h2>Chess</h2><p>Orthodox chess as FIDE plays it: castling, en passant,
      promotion to Queen, Rook, Bishop or Knight.</p>${COMMON}`,
    diagrams: [['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'The start position.'],
      ['8/kqrbnpgc/8/8/8/8/KQRBNPGC/8 w - - 0 1', 'The pieces as drawn here: King, Queen, Rook, Bishop, Knight, Pawn, Genie (a circle), Clown (a Knight facing backwards).', 'gallery']],
  },
  genie: {
    name: 'Genie Of The Lamp',
    html: `<h2>Genie Of The Lamp</h2>
      <p>Each side may bring one extra piece into the game: the <b>Genie</b>, drawn here as a circle,
      as its inventor pictures it.</p>
      <ul>
      <li><b>Rubbing the lamp.</b> Instead of a normal move, turn one of your pawns into your Genie where
      it stands. You may do this only while you have never had a Genie in the game. Select the pawn and press
      <i>Flip this pawn into a Genie</i>. It is written <code>Gd2</code>. A flip can give check, but it cannot
      get you out of one.</li>
      <li><b>How the Genie moves.</b> One or two squares in any straight or diagonal direction. The two-square
      move jumps over whatever stands between, and only captures on the square where it lands.</li>
      <li><b>The double jump.</b> The Genie may also make two leaps in one turn, each over an occupied
      neighbouring square onto the empty square just beyond; this never captures.</li>
      <li><b>Promotion</b> is limited to pieces you are missing from the normal set (and to a Genie when you have
      none on the board). A pawn with nothing to promote to cannot step onto the last rank.</li>
      </ul>
      <p>In the <b>own-half</b> version, a pawn may be turned into a Genie only while it stands on your own half
      of the board (ranks 2-4 for White, 7-5 for Black).</p>${COMMON}`,
    diagrams: [
      ['rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2', 'White could flip the pawn on d4 into a Genie (Gd4).'],
      ['4k3/8/8/8/3G4/8/8/4K3 w - - 0 1', 'A Genie on d4 reaches every square one or two steps away in the eight directions.'],
      ['rnbqkbnr/ppp1pppp/8/8/4p3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3 flips:b', 'After 1. e4 d5 2. Ge4 dxe4: White\'s Genie is gone and White may not flip again; Black still may.'],
    ],
  },
  genesis: {
    name: 'Genesis Chess',
    html: `<h2>Genesis Chess</h2>
      <p>The board starts empty. Each player holds a full set in reserve, shown beside the board.</p>
      <ul>
      <li>Your first move must place your <b>King</b>, on any empty square where it does not stand next to the enemy King.</li>
      <li>After that, each turn you either place one reserve piece on any empty square, or move a piece already on the board.
      Click a reserve piece (or drag it) and then a highlighted square. Written <code>N@f3</code>.</li>
      <li>A placed piece may not give check, but it may block one.</li>
      <li>Pawns may be placed anywhere, first and last rank included. They move one square up, down, left or right and
      capture one square diagonally in any direction. There is no castling, no en passant, no double step and no promotion.</li>
      <li>Captured pieces leave the game for good.</li>
      </ul>${COMMON}`,
    diagrams: [['8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w - - 0 1', 'The start: an empty board, both reserves full.']],
  },
  clown: {
    name: 'Clown Chess',
    html: `<h2>Clown Chess</h2>
      <p>Two additions to ordinary chess.</p>
      <ul>
      <li><b>The Clown</b>, drawn as a Knight looking backwards with a red nose. On the first move of one of your Knights you may
      declare it a Clown (once per game: pick the Knight's square, then choose <i>Declare a Clown</i>; written <code>Nc3(!C)</code>).
      A Clown moves and captures like the piece whose home file it stands on: a or h file as a Rook, b or g as a Knight,
      c or f as a Bishop, d as a Queen of at most four squares, e as a (non-royal) King.</li>
      <li><b>Reincarnation.</b> Once per game you may bring back one of your captured Knights or Bishops onto an empty square of your
      entry zone: your first two ranks plus the two edge files of your half (for White, ranks 1-2 and a3, b3, g3, h3, a4, b4, g4, h4).
      A piece taken on the move just before has to wait one turn, and you may not reincarnate right after your opponent moved a Clown.
      The returning piece is chosen from your hand beside the board; the entry zone is highlighted. Written <code>!Nb4</code>.</li>
      </ul>${COMMON}`,
    diagrams: [['r1bqkbnr/pppppppp/2n5/8/8/2C5/PPPPPPPP/R1BQKBNR w KQkq - 2 2', 'A Clown on c3 moves as a Bishop (c file).'],
      ['rnbqkbnr/ppp2ppp/8/3p4/3p4/P7/1PPPPPPP/R1BQKBNR[N] w KQkq - 0 4 clown:w lastcap:N', 'After 1. Nc3(!C) d5 2. Cd4 e5 3. a3 exd4: the captured Clown waits in White\'s hand as a Knight, for White\'s one re-entry.']],
  },
  magicring: {
    name: 'Magic Ring Chess',
    html: `<h2>Magic Ring Chess</h2>
      <p>Each side owns a magic ring that starts on its King, at level 0.</p>
      <ul>
      <li>Every time a ring changes hands its level rises by one. The level names a power from the agreed list
      (by default Queen, Knight, Rook, Bishop: <code>QNRB</code>), and after the last one it starts again at level 1.</li>
      <li>A piece wearing a ring moves as itself <i>or</i> as its ring's power. On a King the ring gives nothing.</li>
      <li><b>Passing.</b> As your whole move, hand a ring to one of your own pieces on a neighbouring square: select the wearer,
      and the pieces that can take it are marked with gold circles. Written <code>e1~d2</code>.</li>
      <li><b>Capturing.</b> Capture a piece wearing rings and your capturing piece takes them, each one level up.</li>
      <li>A pawn wearing a ring cannot be taken en passant. A pawn moved back to its second rank by a power move loses its double step.</li>
      </ul>
      <p>A ring is drawn as a gold badge at the top corner of the piece that wears it (White's at the right, Black's at the left), holding its level and the letter of the power it grants; a pawn marked <i>t</i> is tainted.</p>${COMMON}`,
    diagrams: [['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'The start: both rings on their Kings, level 0 (White\'s ring drawn at the right of its carrier, Black\'s at the left).'],
      ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'After 1. e1~d2: White\'s ring on the d2 pawn at level 1, so that pawn may also move as a Queen.', ['e1d2']],
      ['rnbqkbnr/pppppppp/8/8/4P3/8/PPPPKPPP/RNBQ1BNR w kq - 2 4 rings:f1.1,e7.1 tainted:e7', 'Rings on the f1 Bishop (White\'s, level 1: Queen) and on the e7 pawn (Black\'s). That pawn is tainted (marked t): it made a move only its ring allows, and may never promote.']],
  },
};
RULES['genie-ownhalf'] = RULES.genie;

const v = location.pathname.split('/').pop();
const r = RULES[v] || RULES.chess;
document.title = 'Chimera — rules of ' + r.name;
// The variants and their rules pages come from the server (Variant::ALL):
// one tab per page (both Genie rule sets share one).
const meta = await api('/api/meta');
const tabs = meta.variants.filter((m, i) => meta.variants.findIndex((x) => x.rules === m.rules) === i);
const here = meta.variants.find((m) => m.id === v) || meta.variants[0];
$('tabs').innerHTML = tabs
  .map((k) => `<a href="/rules/${k.id}"><button${k.rules === here.rules ? ' class="primary"' : ''}>${k.name}</button></a>`).join(' ') +
  ` <a href="/?variant=${v}"><button>Play ${r.name}</button></a>`;
$('text').innerHTML = r.html +
  `<p class="full-rules"><a href="${here.rules}">The complete rules of ${here.name}</a>: every rule, how moves are written, and the readings taken where the inventor's text is unclear.</p>`;
// Each diagram is drawn from the server's reading of its FEN (and moves), so
// rings, tainted pawns, hands and reserves come from the rules, not the text.
const variant = RULES[v] ? (v === 'genie-ownhalf' ? 'genie' : v) : 'chess';
for (const [fen, caption, moves] of r.diagrams) {
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
  if (moves === 'gallery') {
    b.set({ fen, legal: {}, interactive: false, turn: 'w' });
    continue;
  }
  api('/api/position', { variant, fen, moves: moves || [] }).then((pos) => {
    const h = pos.history[pos.history.length - 1];
    const last = h ? { from: h.uci.includes('@') ? h.uci.slice(2, 4) : h.uci.slice(0, 2), to: h.uci.slice(2, 4) } : null;
    b.set({ board: pos.board, pockets: pos.pockets, state: pos.state, legal: {}, interactive: false, turn: pos.turn, check: pos.check, last, variant });
  }).catch((e) => { c.textContent = caption + ' (diagram unavailable: ' + e.message + ')'; });
}
