import { mount } from 'svelte';
import App from './App.svelte';
import { SIGNED_IN_PATH } from './lib/backend/signedin';
import { isDesktop } from './lib/backend';
import './app.css';

// The desktop's page takes its own font (app.css), from its first style on, and lays nothing out before the font
// is loaded: text laid out while it loads would be measured in the fallback fonts, each matched by fontconfig,
// which the font is there to spare. A font that fails to load, or takes longer than a second (the app's own file,
// read in milliseconds), leaves the page in the system's sans-serif rather than the window empty.
const FONT_WAIT_MS = 1000;
if (isDesktop()) {
  document.documentElement.dataset.shell = 'desktop';
  // Every face app.css declares: the font's two weights.
  const loaded = Promise.all([...document.fonts].map((face) => face.load()));
  await Promise.race([loaded.catch(() => []), new Promise((resolve) => setTimeout(resolve, FONT_WAIT_MS))]);
}

// In the sign-in popup, the provider's answer goes to the editor's window and the popup closes; the app itself
// starts only elsewhere. The hand-over's code is a chunk of its own, which the editor's window never loads.
const inSignInPopup = location.pathname === SIGNED_IN_PATH;
if (inSignInPopup) void import('./lib/backend/websignin').then(({ handOverSignIn }) => handOverSignIn());
const app = inSignInPopup ? undefined : mount(App, { target: document.getElementById('app')! });
export default app;
