// Which requests the production server has an operation for: the API's nine (docs/api.md, Operations), and the
// extensions the double was told to offer. Everything else under /api is a Spring 404, a wrong method on a known path a
// Spring 405 — except DELETE, which the production server does not have anywhere (404).

const ID = '[^/]+';

const ROUTES = [
  { path: '/api/configurations/default', methods: ['GET'] },
  { path: '/api/configurations/active', methods: ['GET'] },
  { path: '/api/configurations/visible', methods: ['GET'], offer: 'visible' },
  { path: '/api/configurations', methods: ['GET', 'POST'] },
  { path: `/api/configurations/${ID}`, methods: ['GET', 'PUT'] },
  { path: `/api/configurations/${ID}/getSimilar`, methods: ['GET'] },
  { path: `/api/configurations/${ID}/getRecommendations`, methods: ['GET'] },
  { path: `/api/configurations/${ID}/search`, methods: ['POST'] },
  { path: `/api/configurations/${ID}/set`, methods: ['POST'], offer: 'set' },
  { path: `/api/configurations/${ID}/logs`, methods: ['GET'], offer: 'logs' },
].map((route) => ({ ...route, pattern: new RegExp(`^${route.path}/?$`) }));

/**
 * What to do with a request: `{ forward: true }`, or `{ status, allow }` for a Spring error answer.
 * The first route whose path matches decides (fixed names come before `{configId}`).
 */
export function decide(method, pathname, offered) {
  const route = ROUTES.find((candidate) => candidate.pattern.test(pathname));
  if (!route || (route.offer && !offered.has(route.offer)) || method === 'DELETE') {
    return { status: 404 };
  }
  if (!route.methods.includes(method)) {
    return { status: 405, allow: route.methods.join(', ') };
  }
  return { forward: true };
}
