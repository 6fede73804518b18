import { mount } from 'svelte';
import App from './App.svelte';
import { handOverSignIn } from './lib/backend/websignin';
import './app.css';

// In the sign-in popup, the provider's answer goes to the editor's window and the popup closes; the app itself
// starts only elsewhere.
const app = handOverSignIn() ? undefined : mount(App, { target: document.getElementById('app')! });
export default app;
