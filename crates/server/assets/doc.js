// A documentation page (/docs/...): the site's header above the rendered Markdown.
import { header } from './common.js';

document.getElementById('hdr').innerHTML = header();
