// The site's service worker. For Web Push (docs/server.md, "Web Push"): shows the
// notification a push brings ({title, body, url, tag}, encrypted by the
// server and opened by the browser), and on a click focuses a tab already
// open on its page, or opens one. Served at /sw.js: its scope is the site.

// It also keeps the offline page (offline.html, served at /offline) and
// what it needs: a page the browser asks for while the network is gone
// gets that page, not the browser's own error. Everything else goes to the
// network as it would without a worker (pages, the API and sockets are
// live: nothing else is cached).

const CACHE = 'chimera-offline-1';
const OFFLINE = ['/offline', '/assets/style.css', '/assets/theme.js', '/favicon.svg'];

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(OFFLINE)).then(() => self.skipWaiting()));
});
self.addEventListener('activate', (e) => e.waitUntil((async () => {
  for (const k of await caches.keys()) if (k !== CACHE) await caches.delete(k);
  await self.clients.claim();
})()));

self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET') return;
  if (req.mode === 'navigate') {
    e.respondWith(fetch(req).catch(() => caches.match('/offline')));
  } else if (OFFLINE.includes(new URL(req.url).pathname)) {
    // The offline page's own files: the network's when it answers.
    e.respondWith(fetch(req).catch(() => caches.match(req)));
  }
});

self.addEventListener('push', (e) => {
  let d = {};
  try { d = e.data ? e.data.json() : {}; } catch (_) { d = { body: e.data ? e.data.text() : '' }; }
  const options = { body: d.body || '', icon: '/assets/icons/icon-192.png', data: { url: d.url || '/' } };
  // One notification per game or challenge: a newer one replaces it.
  if (d.tag) { options.tag = d.tag; options.renotify = true; }
  e.waitUntil(self.registration.showNotification(d.title || 'Chimera', options));
});

self.addEventListener('notificationclick', (e) => {
  e.notification.close();
  const url = new URL((e.notification.data && e.notification.data.url) || '/', self.location.origin);
  // Only pages of this site.
  if (url.origin !== self.location.origin) return;
  e.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const same = open.find((w) => {
      const u = new URL(w.url);
      return u.pathname === url.pathname && u.search === url.search;
    });
    if (same) {
      // The list of notifications holds the challenges: open it there too.
      if (url.hash && 'navigate' in same && same.url !== url.href) await same.navigate(url.href).catch(() => {});
      return same.focus();
    }
    return self.clients.openWindow(url.href);
  })());
});
