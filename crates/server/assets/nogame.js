// The pages of a game that does not exist and of any other missing page
// (nogame.html, notfound.html): the site's header (a file, not an
// inline script: the pages' Content-Security-Policy allows no inline script).
import { header } from './common.js';

document.getElementById('hdr').innerHTML = header();
