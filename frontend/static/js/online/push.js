// Web Push in this browser for turn notices (issue 40): the service worker, the subscription
// made with the server's VAPID key, and the server told of it (POST /api/notices/push).
import { get, post } from "./api.js";

const WORKER = "/static/js/online/notices-sw.js";

/** Can this page subscribe (a secure page of a browser with service workers and push)? */
export function pushSupported() {
  return window.isSecureContext && "serviceWorker" in navigator && "PushManager" in window;
}

function keyBytes(base64url) {
  const padded = base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

async function registration() {
  await navigator.serviceWorker.register(WORKER);
  return navigator.serviceWorker.getRegistration(WORKER);
}

/** This browser's subscription, or null. */
export async function currentSubscription() {
  if (!pushSupported()) return null;
  const found = await navigator.serviceWorker.getRegistration(WORKER);
  return found ? found.pushManager.getSubscription() : null;
}

/** Ask for permission, subscribe with the server's key and tell the server. */
export async function subscribe() {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") throw new Error("permission");
  const { key } = await get("/api/notices/push/key");
  const reg = await registration();
  const subscription =
    (await reg.pushManager.getSubscription()) ||
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }));
  return post("/api/notices/push", subscription.toJSON());
}

/** Stop push in this browser (and tell the server). */
export async function unsubscribe() {
  const subscription = await currentSubscription();
  if (!subscription) return null;
  const endpoint = subscription.endpoint;
  await subscription.unsubscribe();
  return post("/api/notices/push/remove", { endpoint });
}
