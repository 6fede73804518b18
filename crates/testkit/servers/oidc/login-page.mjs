// The realm's sign-in page: a plain HTML form (username, password) as Keycloak shows one; a wrong
// password shows the form again with Keycloak's message. Consent never needs a page (the provider's
// loadExistingGrant grants it), but a consent prompt is finished here too should one come.

import { readBody } from '../lib/lifecycle.mjs';
import { checkCredentials } from './directory.mjs';

const escape = (text) => String(text ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page({ realm, action, username, error }) {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Sign in to ${escape(realm)}</title></head>
<body>
<h1 id="kc-page-title">Sign in to your account</h1>
${error ? `<p id="input-error" role="alert">${escape(error)}</p>` : ''}
<form id="kc-form-login" method="post" action="${escape(action)}">
<label for="username">Username</label>
<input id="username" name="username" type="text" value="${escape(username)}" autocomplete="username" autofocus>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password">
<input id="kc-login" name="login" type="submit" value="Sign In">
</form>
</body>
</html>
`;
}

function sendPage(res, status, html) {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
  });
  res.end(html);
}

/** Handles GET (show the form) and POST (sign in) on `/realms/<realm>/login-actions/<uid>`. */
export async function loginActions(provider, realm, req, res) {
  let details;
  try {
    details = await provider.interactionDetails(req, res);
  } catch {
    sendPage(res, 400, '<!doctype html><title>Sign-in expired</title><p>Your sign-in took too long or was not started here. Start again from the application.</p>');
    return;
  }
  const action = new URL(req.url, 'http://127.0.0.1').pathname;

  if (details.prompt.name === 'consent') {
    const grant = new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
    grant.addOIDCScope(details.params.scope ?? 'openid');
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    return;
  }

  if (req.method === 'GET') {
    sendPage(res, 200, page({ realm, action, username: details.params.login_hint }));
    return;
  }
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'GET, POST' });
    res.end();
    return;
  }

  const form = new URLSearchParams((await readBody(req, 64 * 1024)).toString('utf8'));
  const user = checkCredentials(form.get('username'), form.get('password'));
  if (!user) {
    sendPage(res, 200, page({ realm, action, username: form.get('username'), error: 'Invalid username or password.' }));
    return;
  }
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId: user.sub } },
    { mergeWithLastSubmission: false },
  );
}
