// End-to-end: the web UI signs in to `studio serve` through its OpenID Connect provider (docs/api.md, Authentication).
// The Keycloak-shaped test provider gives access tokens of 3 seconds; `studio serve --oidc-issuer --oidc-ui-client-id
// studio-web` serves the built UI with the demo data. The designer signs in through the provider's page in a popup,
// saves again and again over several token lifetimes without noticing them, and, once the provider has ended every
// session, is asked to sign in again without losing what was typed.
import { createHash } from 'node:crypto';
import { assertEqual, startProvider, startServer, suite, until } from './harness.mjs';

const { test, run } = suite();

/** A token of the auth file, to read saves back over HTTP beside the browser. */
const FILE_TOKEN = 'e2e-reader-token';
const ACCESS_TTL = 3;

const host = '[data-testid="preview-host"]';
const resultCount = (page) => page.locator(`${host} [data-testid="result"]`).count();
const saveState = (page) => page.getByTestId('save-state').textContent();
const tab = (page, name) => page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
const tokenDialog = (page) => page.locator('dialog[aria-labelledby="token-title"]');

/** Fills the provider's sign-in page in the popup the button opens, and waits for the popup to close. */
async function signInThroughPopup(page, provider) {
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: `Sign in with ${provider.host}` }).click(),
  ]);
  await popup.locator('#username').fill('ana');
  await popup.locator('#password').fill('ana-password');
  await Promise.all([popup.waitForEvent('close'), popup.locator('#kc-login').click()]);
}

/** The title of configuration `id` as the server has it. */
async function storedTitle(serve, id) {
  return (await serve.api('GET', `/api/configurations/${id}`)).configuration.config.title;
}

/** The id of the configuration open in the editor (the current item of the list). */
async function openId(page, serve) {
  const title = await page.locator('#f-config-title').inputValue();
  const list = await serve.api('GET', '/api/configurations');
  return list.configurations.find((c) => c.config.title === title).id;
}

/** Types `title` and saves with Ctrl+S; waits for the editor to say it is saved. */
async function saveTitle(page, title) {
  await page.locator('#f-config-title').fill(title);
  await page.keyboard.press('Control+s');
  await until(`“${title}” saved`, async () => (await saveState(page)).includes('Saved'));
}

test('the token dialog offers the provider; signing in through its popup loads the list and preview', async ({ page, serve, provider }) => {
  await page.goto(serve.url + '/');
  await until('the sign-in offer', () => page.getByRole('button', { name: `Sign in with ${provider.host}` }).isVisible());
  assertEqual(await page.locator('#token-input').isVisible(), true, 'pasting a token is still offered');
  await signInThroughPopup(page, provider);
  await until('the dialog gone', async () => (await tokenDialog(page).count()) === 0);
  await until('the demo configuration in the list', () => page.getByRole('button', { name: /Industry news \(demo\)/ }).isVisible());
  await until('ten results in the preview', async () => (await resultCount(page)) === 10);
  const kept = await page.evaluate(() => JSON.parse(sessionStorage.getItem('search-studio.sign-in')));
  assertEqual([kept.provider.clientId, typeof kept.tokens.refreshToken], ['studio-web', 'string'], 'the sign-in kept for the tab');
});

test('saves keep landing over more than three token lifetimes, renewed without a word', async ({ page, serve, provider }) => {
  const refreshes = [];
  const onRequest = (request) => {
    if (request.url() === provider.tokenEndpoint && /grant_type=refresh_token/.test(request.postData() ?? '')) refreshes.push(request);
  };
  page.on('request', onRequest);
  await tab(page, 'General');
  const id = await openId(page, serve);
  const started = Date.now();
  // Past three lifetimes plus the server's 5 s of clock leeway, so that an expired token would be refused.
  for (let n = 1; Date.now() - started < 3 * ACCESS_TTL * 1000 + 5_000 || n <= 8; n++) {
    await saveTitle(page, `Signed in, save ${n}`);
    assertEqual(await storedTitle(serve, id), `Signed in, save ${n}`, `save ${n} on the server`);
    assertEqual(await tokenDialog(page).count(), 0, `no dialog at save ${n}`);
    // The designer pauses between edits.
    await page.waitForTimeout(700);
  }
  page.off('request', onRequest);
  assertEqual(refreshes.length >= 3, true, `the token was renewed at least three times (${refreshes.length})`);
});

test('when the provider ends the session, the dialog asks again, the edit stays, and the save lands after signing in', async ({ page, serve, provider }) => {
  const id = await openId(page, serve);
  await provider.revokeSessions();
  // The next request needs a renewal, which the provider now refuses.
  await until('the access token due for renewal', () =>
    page.evaluate(() => {
      const { tokens } = JSON.parse(sessionStorage.getItem('search-studio.sign-in'));
      return tokens.expiresAt - tokens.lifetime / 4 < Date.now();
    }));
  await page.locator('#f-config-title').fill('Typed after the session ended');
  await page.keyboard.press('Control+s');
  await until('the sign-in dialog', () => tokenDialog(page).isVisible());
  assertEqual((await tokenDialog(page).textContent()).includes('Your sign-in has ended'), true, 'the dialog says why');
  assertEqual(await page.locator('#f-config-title').inputValue(), 'Typed after the session ended', 'the edit is still in the editor');
  assertEqual(await storedTitle(serve, id) === 'Typed after the session ended', false, 'nothing saved before signing in');
  await signInThroughPopup(page, provider);
  await until('the dialog closed after signing in', async () => (await tokenDialog(page).count()) === 0);
  assertEqual(await page.locator('#f-config-title').inputValue(), 'Typed after the session ended', 'the edit kept after signing in');
  // The save is sent again by the app, with nothing pressed or typed again: held while signing in, whichever
  // request found the session ended first (the save itself, the preview's search of the typed title, the
  // connection check), even when that request opened the dialog as Ctrl+S was pressed.
  let seen = '';
  await until('the held save sent by the app after signing in', async () => {
    const [state, dialogs] = [await saveState(page), await tokenDialog(page).count()];
    seen = `save state "${state}", ${dialogs} sign-in dialog(s)`;
    return state.includes('Saved') && dialogs === 0;
  }).catch((e) => {
    throw new Error(`${e.message}; last seen: ${seen}`);
  });
  assertEqual(await storedTitle(serve, id), 'Typed after the session ended', 'the save on the server');
  const { tokens } = await page.evaluate(() => JSON.parse(sessionStorage.getItem('search-studio.sign-in')));
  assertEqual(tokens.expiresAt > Date.now(), true, 'a new sign-in kept');
});

/** Runs the suite in a page of its own against a provider and a server of its own. */
export async function runWebSignIn(browser) {
  const provider = await startProvider({ accessTtl: ACCESS_TTL });
  const auth = {
    users: [{ name: 'e2e', tokenSha256: createHash('sha256').update(FILE_TOKEN).digest('hex'), groups: ['designers'] }],
    groups: [{ name: 'designers', operations: ['read', 'write', 'search'], searchSpaces: ['*'] }],
  };
  const args = ['--oidc-issuer', provider.issuer, '--oidc-ui-client-id', 'studio-web'];
  let serve = null;
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    serve = await startServer({ auth, token: FILE_TOKEN, args });
    const page = await context.newPage();
    page.setDefaultTimeout(5000);
    page.on('pageerror', (e) => console.log(`  page error: ${e.message}`));
    return await run({ page, serve, provider });
  } finally {
    await context.close();
    serve?.stop();
    provider.stop();
  }
}
