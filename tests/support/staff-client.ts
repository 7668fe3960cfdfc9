/**
 * A tiny browser for the staff area over real HTTP: it keeps cookies (dropping those cleared with
 * Max-Age=0), never follows redirects, and posts forms from the site's own origin, as a page would.
 */
export interface StaffClient {
  cookies: Map<string, string>;
  request(pathname: string, init?: { method?: string; form?: Record<string, string>; headers?: Record<string, string> }): Promise<Response>;
}

export function staffClient(origin: string): StaffClient {
  const cookies = new Map<string, string>();
  return {
    cookies,
    async request(pathname, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (cookies.size > 0) headers.Cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      if (init.form) {
        headers['Content-Type'] = 'application/x-www-form-urlencoded';
        headers.Origin ??= origin;
      }
      const res = await fetch(`${origin}${pathname}`, {
        method: init.method ?? (init.form ? 'POST' : 'GET'),
        redirect: 'manual',
        headers,
        ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair = ''] = line.split(';', 1);
        const [name = '', value = ''] = pair.split('=');
        if (/Max-Age=0/.test(line)) cookies.delete(name);
        else cookies.set(name, value);
      }
      return res;
    },
  };
}

/** The sign-in form's anti-forgery token (the page sets its cookie twin). */
export async function loginTokenOf(client: StaffClient): Promise<string> {
  const html = await (await client.request('/admin/login')).text();
  const token = /name="loginToken" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error('the sign-in page has no token');
  return token;
}
