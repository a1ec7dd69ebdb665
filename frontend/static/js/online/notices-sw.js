// The service worker of turn notices by Web Push (issue 40; docs/online-notices.md). The
// server encrypts each notice for this browser's subscription (RFC 8291); the push service
// hands it here already decrypted. Its JSON names the game, the lobby, the house, the kind of
// decision ("phase") and the words to show in the player's language.
self.addEventListener("push", (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch {
    notice = {};
  }
  const title = notice.title || "Westeros";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: notice.body || "",
      tag: `westeros-${notice.game || ""}-${notice.house || ""}`,
      icon: "/static/icons/favicon.svg",
      data: { url: notice.url || "/" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (url.origin !== self.location.origin) return;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => w.url === url.href);
      return open ? open.focus() : self.clients.openWindow(url.href);
    }),
  );
});
