/**
 * Browser script linked only by /settings (built as manifest.scripts.push): makes the Push notifications switch
 * real. On: permission → service worker /sw.js → PushManager subscription with the server's VAPID key → stored by
 * POST /api/notifications/push-subscription. Off: the browser unsubscribes and DELETE turns Push off.
 */
const API = '/api/notifications/push-subscription';

const fromBase64url = (s: string) =>
  Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (ch) => ch.charCodeAt(0));

/** True when the subscription was made with this key (a changed VAPID key needs a new subscription). */
function sameKey(sub: PushSubscription, key: Uint8Array): boolean {
  const old = sub.options.applicationServerKey ? new Uint8Array(sub.options.applicationServerKey) : null;
  return !!old && old.length === key.length && old.every((b, i) => b === key[i]);
}

async function call(method: 'POST' | 'DELETE', body?: unknown): Promise<string> {
  const res = await fetch(API, {
    method,
    credentials: 'same-origin',
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = (await res.json().catch(() => null)) as { message?: string } | null;
  if (!res.ok) throw new Error(answer?.message ?? `The server answered ${res.status}.`);
  return answer?.message ?? 'Saved.';
}

async function subscribe(publicKey: string): Promise<string> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window))
    throw new Error('This browser does not support push notifications.');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted')
    throw new Error('Notifications are not allowed for this site: allow them in the browser to turn this on.');
  const registration = await navigator.serviceWorker.register('/sw.js');
  await navigator.serviceWorker.ready;
  const key = fromBase64url(publicKey);
  let sub = await registration.pushManager.getSubscription();
  if (sub && !sameKey(sub, key)) {
    await sub.unsubscribe();
    sub = null;
  }
  sub ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  return call('POST', sub.toJSON());
}

/** The server forgets first (then nothing more is sent); the browser's own subscription goes after. */
async function unsubscribe(): Promise<string> {
  const message = await call('DELETE');
  const registration = await navigator.serviceWorker?.getRegistration('/');
  await (await registration?.pushManager.getSubscription())?.unsubscribe().catch(() => false);
  return message;
}

const input = document.querySelector<HTMLInputElement>('input[data-vapid-key]');
const hint = document.getElementById('settings-push-status');
if (input && hint) {
  if (input.checked && 'Notification' in window && Notification.permission === 'denied') {
    hint.textContent = 'On, but notifications are blocked for this site in this browser.';
  }
  input.addEventListener('change', async () => {
    const on = input.checked;
    input.disabled = true;
    try {
      hint.textContent = on ? await subscribe(input.dataset.vapidKey!) : await unsubscribe();
    } catch (err) {
      input.checked = !on;
      hint.textContent = err instanceof Error ? err.message : String(err);
    } finally {
      input.disabled = false;
    }
  });
}
