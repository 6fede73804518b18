import { mount } from 'svelte';
import App from './App.svelte';
import { SIGNED_IN_PATH } from './lib/backend/signedin';
import { isDesktop } from './lib/backend';
import './app.css';

// The desktop's page takes its own font (app.css), from its first style on.
if (isDesktop()) document.documentElement.dataset.shell = 'desktop';

// In the sign-in popup, the provider's answer goes to the editor's window and the popup closes; the app itself
// starts only elsewhere. The hand-over's code is a chunk of its own, which the editor's window never loads.
const inSignInPopup = location.pathname === SIGNED_IN_PATH;
if (inSignInPopup) void import('./lib/backend/websignin').then(({ handOverSignIn }) => handOverSignIn());
const app = inSignInPopup ? undefined : mount(App, { target: document.getElementById('app')! });
export default app;
