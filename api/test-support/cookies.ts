/** The session cookie a sign-in (or registration) response sets, as a `cookie` header; cleared cookies left out. */
export const sessionCookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .filter((c) => !c.endsWith('='))
    .join('; ');
