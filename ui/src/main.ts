import { mount } from 'svelte';
import App from './App.svelte';
import { SIGNED_IN_PATH } from './lib/backend/signedin';
import { isDesktop } from './lib/backend';
import './app.css';

// The desktop's page takes its own font (app.css), from its first style on, and lays nothing out before the font
// is loaded: text laid out while it loads would be measured in the fallback fonts, each matched by fontconfig,
// which the font is there to spare. A font that fails to load leaves the page in the system's sans-serif.
if (isDesktop()) {
  document.documentElement.dataset.shell = 'desktop';
  await Promise.all(['400', '700'].map((weight) => document.fonts.load(`${weight} 1em "Studio Sans"`).catch(() => [])));
}

// In the sign-in popup, the provider's answer goes to the editor's window and the popup closes; the app itself
// starts only elsewhere. The hand-over's code is a chunk of its own, which the editor's window never loads.
const inSignInPopup = location.pathname === SIGNED_IN_PATH;
if (inSignInPopup) void import('./lib/backend/websignin').then(({ handOverSignIn }) => handOverSignIn());
const app = inSignInPopup ? undefined : mount(App, { target: document.getElementById('app')! });
export default app;
