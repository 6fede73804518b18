// Answers of a fetch made up for the HTTP backend's tests: a JSON answer with its status, and a recorded call.

/** A request the backend made: its URL and options. */
export type Call = { url: string; init: RequestInit };

/** An answer of `status` with `body` as JSON, made anew each time it is given. */
export const json = (status: number, body: unknown) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
