// Game sounds, synthesised with WebAudio (no files to fetch): a move, a
// capture, a check and the game's end. A mute switch is remembered in the
// browser (localStorage 'chimera.mute').
//
// Browsers start audio only after the person has touched the page, so the
// context is made on the first pointer or key press. Every sound asked for
// is counted on <html data-sounds> and named in data-last-sound (muted ones
// are not), which is what the browser tests read.
import { t } from './i18n.js';

const KEY = 'chimera.mute';
let ctx = null;

function unlock() {
  if (ctx) { if (ctx.state === 'suspended') ctx.resume().catch(() => {}); return; }
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return;
  try { ctx = new AC(); } catch (_) { ctx = null; }
}
for (const ev of ['pointerdown', 'keydown', 'touchstart']) window.addEventListener(ev, unlock, { capture: true, passive: true });

export function muted() { return localStorage.getItem(KEY) === '1'; }
export function setMuted(m) { localStorage.setItem(KEY, m ? '1' : '0'); }

/** A tone: frequency (Hz), start offset and length (s), peak gain, wave. */
function tone(freq, at, len, gain, type = 'sine') {
  const t0 = ctx.currentTime + at;
  const o = ctx.createOscillator();
  const g = ctx.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, t0);
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.005);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + len);
  o.connect(g).connect(ctx.destination);
  o.start(t0);
  o.stop(t0 + len + 0.02);
}

/** A short burst of filtered noise: the knock of a piece set down. */
function knock(at, len, gain, freq) {
  const t0 = ctx.currentTime + at;
  const n = Math.floor(ctx.sampleRate * len);
  const buf = ctx.createBuffer(1, n, ctx.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < n; i++) data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / n, 3);
  const src = ctx.createBufferSource();
  src.buffer = buf;
  const f = ctx.createBiquadFilter();
  f.type = 'bandpass';
  f.frequency.value = freq;
  f.Q.value = 1.2;
  const g = ctx.createGain();
  g.gain.value = gain;
  src.connect(f).connect(g).connect(ctx.destination);
  src.start(t0);
}

const SOUNDS = {
  move: () => knock(0, 0.07, 0.9, 900),
  capture: () => { knock(0, 0.09, 1.2, 600); knock(0.05, 0.07, 0.8, 1200); },
  check: () => { knock(0, 0.06, 0.8, 900); tone(880, 0.02, 0.18, 0.15, 'triangle'); tone(1175, 0.1, 0.2, 0.12, 'triangle'); },
  end: () => { tone(523, 0, 0.5, 0.15); tone(659, 0.12, 0.5, 0.13); tone(784, 0.24, 0.7, 0.12); },
};

/** Plays `name` (move, capture, check, end) unless muted. */
export function play(name) {
  if (muted() || !SOUNDS[name]) return;
  const root = document.documentElement;
  root.dataset.sounds = String(parseInt(root.dataset.sounds || '0', 10) + 1);
  root.dataset.lastSound = name;
  if (!ctx || ctx.state !== 'running') return;
  try { SOUNDS[name](); } catch (_) { /* audio is a nicety */ }
}

/** The sound for a move entry of the game's history (and whether it ended it). */
export function soundFor(h, finished) {
  if (finished) return 'end';
  if (h.check) return 'check';
  return h.san.includes('x') ? 'capture' : 'move';
}

/** A mute switch: a button that shows and flips the setting. */
export function muteButton(button) {
  const show = () => {
    const m = muted();
    button.textContent = m ? t('sound-off') : t('sound-on');
    button.setAttribute('aria-pressed', m ? 'true' : 'false');
    button.title = m ? t('sound-off-title') : t('sound-on-title');
  };
  button.addEventListener('click', () => { setMuted(!muted()); show(); });
  show();
}
