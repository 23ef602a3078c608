// Basic-auth credentials for servers that require them. When the page itself is protected, the browser's own
// prompt has already run and caches the credentials, so requests carry them without help. When an API
// request still answers 401 (the prompt was dismissed, or the page was served unprotected), the login dialog
// asks for a user and password; they are kept for the tab's session only and sent as an Authorization header.
const STORAGE_KEY = 'svc.console.authorization';

/** Tries per request: the first answer, then one retry per credentials entered before giving up. */
const LOGIN_ATTEMPTS_MAX = 3;

let authorization: string | null = sessionStorage.getItem(STORAGE_KEY);
let pendingLogin: Promise<boolean> | undefined;
/** Fires `change` when credentials are entered or dropped, so the page can show or hide "Sign out". */
export const credentialEvents = new EventTarget();

function setAuthorization(value: string | null): void {
  authorization = value;
  if (value === null) sessionStorage.removeItem(STORAGE_KEY);
  else sessionStorage.setItem(STORAGE_KEY, value);
  credentialEvents.dispatchEvent(new Event('change'));
}

export function authorizationHeader(): string | null {
  return authorization;
}

export function basicAuthorization(user: string, password: string): string {
  // btoa only takes Latin-1; encode UTF-8 first so any user name or password survives.
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

function withAuthorization(init: RequestInit): RequestInit {
  if (authorization === null) return init;
  const headers = new Headers(init.headers);
  headers.set('Authorization', authorization);
  return { ...init, headers };
}

/** fetch() that sends the entered credentials and, on 401, asks for new ones and retries. */
export async function authorizedFetch(url: string, init: RequestInit = {}): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(url, withAuthorization(init));
    if (response.status !== 401 || attempt >= LOGIN_ATTEMPTS_MAX) return response;
    if (!(await requestLogin())) return response;
    await response.body?.cancel();
  }
}

/** Shows the login dialog once even when several requests fail together; resolves false when cancelled. */
export function requestLogin(): Promise<boolean> {
  pendingLogin ??= showLoginDialog().finally(() => {
    pendingLogin = undefined;
  });
  return pendingLogin;
}

export function signOut(): void {
  setAuthorization(null);
}

function showLoginDialog(): Promise<boolean> {
  const dialog = document.querySelector<HTMLDialogElement>('#login');
  const form = dialog?.querySelector<HTMLFormElement>('form');
  if (dialog === null || dialog === undefined || form === null || form === undefined) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onClose = (): void => {
      form.removeEventListener('submit', onSubmit);
      resolve(dialog.returnValue === 'login');
    };
    const onSubmit = (): void => {
      const data = new FormData(form);
      setAuthorization(basicAuthorization(String(data.get('user') ?? ''), String(data.get('password') ?? '')));
    };
    form.addEventListener('submit', onSubmit);
    dialog.addEventListener('close', onClose, { once: true });
    dialog.returnValue = '';
    dialog.showModal();
  });
}
