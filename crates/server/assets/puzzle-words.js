// The puzzles' shared words: a set's name and the themes' names and
// meanings in the reader's language (the catalogs' puzzle-theme-* keys,
// written out so that the catalog tests find them). The theme ids are
// crates/puzzles' THEMES.
import { t, variantName } from './common.js';

const THEMES = {
  mate: [t('puzzle-theme-mate'), t('puzzle-theme-mate-help')],
  mateIn1: [t('puzzle-theme-matein1'), t('puzzle-theme-matein1-help')],
  mateIn2: [t('puzzle-theme-matein2'), t('puzzle-theme-matein2-help')],
  mateIn3: [t('puzzle-theme-matein3'), t('puzzle-theme-matein3-help')],
  mateIn4: [t('puzzle-theme-matein4'), t('puzzle-theme-matein4-help')],
  mateIn5: [t('puzzle-theme-matein5'), t('puzzle-theme-matein5-help')],
  material: [t('puzzle-theme-material'), t('puzzle-theme-material-help')],
  crushing: [t('puzzle-theme-crushing'), t('puzzle-theme-crushing-help')],
  advantage: [t('puzzle-theme-advantage'), t('puzzle-theme-advantage-help')],
  check: [t('puzzle-theme-check'), t('puzzle-theme-check-help')],
  capture: [t('puzzle-theme-capture'), t('puzzle-theme-capture-help')],
  quiet: [t('puzzle-theme-quiet'), t('puzzle-theme-quiet-help')],
  promotion: [t('puzzle-theme-promotion'), t('puzzle-theme-promotion-help')],
  flip: [t('puzzle-theme-flip'), t('puzzle-theme-flip-help')],
  placement: [t('puzzle-theme-placement'), t('puzzle-theme-placement-help')],
  declaration: [t('puzzle-theme-declaration'), t('puzzle-theme-declaration-help')],
  reentry: [t('puzzle-theme-reentry'), t('puzzle-theme-reentry-help')],
  ringPass: [t('puzzle-theme-ringpass'), t('puzzle-theme-ringpass-help')],
  ringPower: [t('puzzle-theme-ringpower'), t('puzzle-theme-ringpower-help')],
  genieMove: [t('puzzle-theme-geniemove'), t('puzzle-theme-geniemove-help')],
  clownMove: [t('puzzle-theme-clownmove'), t('puzzle-theme-clownmove-help')],
};

/** A theme's name (an unknown id stands as it is). */
export function themeName(id) { return THEMES[id] ? THEMES[id][0] : id; }

/** What a theme means. */
export function themeHelp(id) { return THEMES[id] ? THEMES[id][1] : ''; }

/** A set's name: the game, and its rule options when it has some. */
export function setName(s) {
  const name = variantName(s.variant_name);
  if (!s.options) return t('puzzles-set-name', { name });
  const powers = /^ring_powers=([A-Z]+)$/.exec(s.options);
  const options = powers ? t('puzzles-ring-powers', { powers: powers[1] }) : s.options;
  return t('puzzles-set-name-options', { name, options });
}
