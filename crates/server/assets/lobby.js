import { api, toast, tokenFor, saveToken, header } from './common.js';

document.getElementById('hdr').innerHTML = header();
const $ = (id) => document.getElementById(id);

let meta;
async function init() {
  meta = await api('/api/meta');
  for (const v of meta.variants) $('variant').insertAdjacentHTML('beforeend', `<option value="${v.id}">${v.name}</option>`);
  for (const l of meta.levels) $('level').insertAdjacentHTML('beforeend', `<option value="${l.level}">Level ${l.level}</option>`);
  $('level').value = '3';
  const pre = new URLSearchParams(location.search).get('variant');
  if (pre) $('variant').value = pre;
  refresh();
  loadGames();
  setInterval(loadGames, 5000);
}

function val(name) { const e = document.querySelector(`input[name=${name}]:checked`); return e && e.value; }

function refresh() {
  const v = $('variant').value;
  $('ring-box').classList.toggle('hidden', v !== 'magicring');
  const info = meta.variants.find((x) => x.id === v);
  $('variant-rules').innerHTML = `${info ? info.summary : ''} <a href="/rules/${v}">Rules</a>`;
  const mode = val('mode');
  $('level-box').classList.toggle('hidden', mode !== 'engine');
  $('color-box').classList.toggle('hidden', mode === 'hotseat');
  $('clock-box').classList.toggle('hidden', val('clock') !== 'timed');
  const l = meta.levels.find((x) => String(x.level) === $('level').value);
  $('level-words').textContent = l ? l.words : '';
}
document.querySelectorAll('#create select, #create input').forEach((e) => e.addEventListener('change', refresh));

$('create').addEventListener('submit', async (e) => {
  e.preventDefault();
  const mode = val('mode');
  const body = { variant: $('variant').value, mode };
  if (body.variant === 'magicring') body.ring_powers = $('ring_powers').value.toUpperCase();
  if (mode === 'engine') body.level = parseInt($('level').value, 10);
  if (mode !== 'hotseat') body.color = val('color');
  if (val('clock') === 'timed') body.clock = { minutes: parseFloat($('minutes').value), increment: parseFloat($('increment').value) };
  try {
    const r = await api('/api/games', body);
    saveToken(r.id, r.token, r.colors);
    if (r.invite) localStorage.setItem('chimera.invite.' + r.id, r.invite);
    location.href = r.url;
  } catch (err) { toast(err.message); }
});

async function loadGames() {
  let games;
  try { games = await api('/api/games'); } catch (_) { return; }
  const rows = games.map((g) => {
    const mine = tokenFor(g.id) ? '<span class="tag mine">yours</span> ' : '';
    const opp = g.mode === 'engine' ? `Computer ${g.engine_level}` : g.mode === 'friend' ? 'Friend' : 'Hot-seat';
    const st = g.status === 'active' ? '<span class="tag active">playing</span>' : `${g.result} <small>${g.reason || ''}</small>`;
    return `<tr><td>${mine}<a href="/game/${g.id}">${g.variant_name}</a></td><td>${opp}</td><td>${Math.ceil(g.plies / 2)}</td><td>${st}</td><td>${new Date(g.updated_at).toLocaleString()}</td></tr>`;
  });
  $('games').innerHTML = rows.join('') || '<tr><td colspan="5">No games yet: create one.</td></tr>';
}

init().catch((e) => toast(e.message));
