// The page of a game that does not exist: the site's header (a file, not an
// inline script: the pages' Content-Security-Policy allows no inline script).
import { header } from './common.js';

document.getElementById('hdr').innerHTML = header();
