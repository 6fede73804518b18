// Generated from the server's routes (their OpenAPI document, and the Backend operation each handler calls)
// and the Backend trait by the server's `operations` test; do not edit.
// Regenerate: UPDATE_BINDINGS=1 cargo test -p studio-server --test main operations

/** Where an argument of an operation goes: the next `{…}` of the path, the query string, or the body. */
export type ArgumentPlace = 'path' | 'query' | 'body';

/** How an operation of the API travels over HTTP. */
export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** Where each argument goes, in order. */
  args: readonly ArgumentPlace[];
  /** The field of the answer's body that is the operation's answer; null: the whole body. */
  answer: string | null;
  /** Fields of the body that are not part of the answer (the server's `message`). */
  omit: readonly string[];
  /** What a field another server leaves out of the body reads as. */
  absent: Readonly<Record<string, unknown>>;
}

/** Every operation of the API that the server routes, by the name the UI calls it. */
export const ROUTES = {
  defaultConfiguration: {"method":"GET","path":"/api/configurations/default","args":[],"answer":"configuration","omit":[],"absent":{}},
  listConfigurations: {"method":"GET","path":"/api/configurations","args":[],"answer":null,"omit":["message"],"absent":{"configurations":[],"activeId":null}},
  activeConfiguration: {"method":"GET","path":"/api/configurations/active","args":[],"answer":"configuration","omit":[],"absent":{}},
  getConfiguration: {"method":"GET","path":"/api/configurations/{configId}","args":["path"],"answer":"configuration","omit":[],"absent":{}},
  createConfiguration: {"method":"POST","path":"/api/configurations","args":["body"],"answer":null,"omit":["message"],"absent":{"errors":[]}},
  updateConfiguration: {"method":"PUT","path":"/api/configurations/{configId}","args":["path","body"],"answer":null,"omit":["message"],"absent":{"errors":[]}},
  similarDocuments: {"method":"GET","path":"/api/configurations/{configId}/getSimilar","args":["path","query"],"answer":"result","omit":[],"absent":{"result":[]}},
  recommendations: {"method":"GET","path":"/api/configurations/{configId}/getRecommendations","args":["path","query"],"answer":null,"omit":[],"absent":{"message":null,"result":[],"resultType":null,"status":null,"success":null,"total":null}},
  search: {"method":"POST","path":"/api/configurations/{configId}/search","args":["path","body"],"answer":null,"omit":[],"absent":{"concepts":[],"facets":[],"result":[],"message":"","total":0}},
  setActive: {"method":"POST","path":"/api/configurations/{configId}/set","args":["path"],"answer":"configuration","omit":[],"absent":{}},
  visibleConfigurations: {"method":"GET","path":"/api/configurations/visible","args":[],"answer":"configurations","omit":[],"absent":{"configurations":[]}},
  configurationLogs: {"method":"GET","path":"/api/configurations/{configId}/logs","args":["path"],"answer":"logs","omit":[],"absent":{"logs":[]}},
  deleteConfiguration: {"method":"DELETE","path":"/api/configurations/{configId}","args":["path"],"answer":null,"omit":["message"],"absent":{}},
  searchSpaces: {"method":"GET","path":"/api/searchspaces","args":[],"answer":"searchSpaces","omit":[],"absent":{"searchSpaces":[]}},
  facetHealth: {"method":"GET","path":"/api/searchspaces/{searchSpaceId}/facethealth","args":["path"],"answer":null,"omit":["message"],"absent":{}},
} as const satisfies Record<string, Route>;
