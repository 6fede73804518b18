// The sign-in dialog by method, and in the whole app: a save that meets an ended sign-in asks for the password
// on top of the editor, keeps what was typed, and lands once signed in.
import { describe, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import SignInDialog from './SignInDialog.svelte';
import App from '../../App.svelte';
import { FakeBackend } from '../../test/fakeBackend';
import { LOCAL, PASSWORD, TOKEN, fakeDesktop, remote } from '../../test/fakeDesktop';
import type { Connections } from '../types/desktop';
import { BackendError } from '../backend/Backend';

describe('the sign-in dialog', () => {
  test('password: shows the username, signs in with the password and the remember choice', async () => {
    const { desktop } = fakeDesktop([LOCAL, remote({ signedIn: false, rememberPassword: false })], 'c-staging');
    const onDone = vi.fn();
    render(SignInDialog, { props: { desktop, connection: remote({ signedIn: false }), onDone } });
    expect(screen.getByRole('heading').textContent).toBe('Sign in to Staging');
    expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('ana');
    const password = screen.getByLabelText('Password') as HTMLInputElement;
    expect(password.type).toBe('password');

    await fireEvent.input(password, { target: { value: 'wrong' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('invalid user credentials');
    expect(onDone).not.toHaveBeenCalled();

    await fireEvent.input(password, { target: { value: PASSWORD } });
    await fireEvent.click(screen.getByLabelText('Remember the password on this device'));
    await fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(desktop.signIn).toHaveBeenLastCalledWith('c-staging', { password: PASSWORD, token: null, remember: true });
    const list = onDone.mock.calls[0][0] as Connections;
    expect(list.connections.find((c) => c.id === 'c-staging')!.signedIn).toBe(true);
  });

  test('token: a new token is pasted', async () => {
    const { desktop } = fakeDesktop([LOCAL, remote({ signIn: 'token', username: null, signedIn: false })]);
    const onDone = vi.fn();
    render(SignInDialog, { props: { desktop, connection: remote({ signIn: 'token', username: null }), onDone } });
    expect(screen.queryByLabelText('Password')).toBeNull();
    await fireEvent.input(screen.getByLabelText('New access token'), { target: { value: ` ${TOKEN} ` } });
    await fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(desktop.signIn).toHaveBeenCalledWith('c-staging', { password: null, token: TOKEN, remember: true });
  });

  test('browser: one button, then a waiting state until the browser is done', async () => {
    const { desktop } = fakeDesktop([LOCAL, remote({ signIn: 'browser', signedIn: false })]);
    let finish: () => void = () => {};
    desktop.signInBrowser.mockImplementation(
      (id: string) => new Promise<Connections>((resolve) => (finish = () => resolve({ connections: [remote({ id, signIn: 'browser' })], current: id, notices: [] }))),
    );
    const onDone = vi.fn();
    render(SignInDialog, { props: { desktop, connection: remote({ signIn: 'browser' }), onDone } });
    const go = screen.getByRole('button', { name: 'Sign in with the browser' }) as HTMLButtonElement;
    await fireEvent.click(go);
    expect((await screen.findByTestId('sign-in-waiting')).textContent).toMatch(/Waiting for the browser/);
    expect(go.disabled).toBe(true);
    expect(desktop.signInBrowser).toHaveBeenCalledWith('c-staging');
    finish();
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(expect.objectContaining({ current: 'c-staging' })));
  });

  test('cancel answers null', async () => {
    const { desktop } = fakeDesktop([LOCAL, remote()]);
    const onDone = vi.fn();
    render(SignInDialog, { props: { desktop, connection: remote(), onDone } });
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onDone).toHaveBeenCalledWith(null);
    expect(desktop.signIn).not.toHaveBeenCalled();
    expect(desktop.cancelSignIn).not.toHaveBeenCalled();
  });

  test('cancel while waiting for the browser stops the shell waiting', async () => {
    const { desktop } = fakeDesktop([LOCAL, remote({ signIn: 'browser', signedIn: false })]);
    desktop.signInBrowser.mockImplementation(() => new Promise<Connections>(() => {}));
    const onDone = vi.fn();
    render(SignInDialog, { props: { desktop, connection: remote({ signIn: 'browser' }), onDone } });
    await fireEvent.click(screen.getByRole('button', { name: 'Sign in with the browser' }));
    await screen.findByTestId('sign-in-waiting');
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(desktop.cancelSignIn).toHaveBeenCalledWith('c-staging');
    expect(onDone).toHaveBeenCalledWith(null);
  });
});

describe('in the app', () => {
  test('a save after the sign-in ended asks on top of the editor, keeps the typed edit, and lands', async () => {
    localStorage.clear();
    const store = new FakeBackend([{ title: 'News', searchSpace: 'demo' }]);
    const shell = fakeDesktop([LOCAL, remote()], 'c-staging', store);
    render(App, { props: { backend: shell.over(store) } });
    const title = (await screen.findByLabelText('Title')) as HTMLInputElement;
    expect(screen.getByTestId('connection').textContent).toMatch(/Staging · signed in/);

    shell.endSignIn('c-staging');
    await fireEvent.input(title, { target: { value: 'News, typed before the sign-in ended' } });
    await fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    const dialog = await screen.findByTestId('sign-in-dialog');
    expect(dialog.textContent).toMatch(/Your sign-in has ended/);
    expect(screen.getByTestId('connection').textContent).toMatch(/Staging · not signed in/);
    expect(title.value).toBe('News, typed before the sign-in ended');
    expect(store.calls.filter((c) => c.op === 'update')).toHaveLength(0);

    await fireEvent.input(screen.getByLabelText('Password'), { target: { value: PASSWORD } });
    await fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.queryByTestId('sign-in-dialog')).toBeNull());
    await waitFor(() => expect(store.configs.get(1)!.config.title).toBe('News, typed before the sign-in ended'));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(title.value).toBe('News, typed before the sign-in ended');
    expect(screen.getByTestId('connection').textContent).toMatch(/Staging · signed in/);
  });

  test('Ctrl+S pressed while the dialog another request opened is up is held, and the save lands once signed in', async () => {
    localStorage.clear();
    const store = new FakeBackend([{ title: 'News', searchSpace: 'demo' }]);
    const shell = fakeDesktop([LOCAL, remote()], 'c-staging', store);
    render(App, { props: { backend: shell.over(store) } });
    const title = (await screen.findByLabelText('Title')) as HTMLInputElement;
    await fireEvent.input(title, { target: { value: 'News, saved as the dialog opened' } });
    // The connection check finds the sign-in ended first and opens the dialog.
    shell.endSignIn('c-staging');
    shell.workspace.checkConnection.mockRejectedValueOnce(new BackendError('unauthorized', 'the sign-in has ended'));
    await fireEvent.click(screen.getByTestId('connection'));
    await screen.findByTestId('sign-in-dialog');
    await fireEvent.keyDown(window, { key: 's', ctrlKey: true });

    await fireEvent.input(screen.getByLabelText('Password'), { target: { value: PASSWORD } });
    await fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.queryByTestId('sign-in-dialog')).toBeNull());
    await waitFor(() => expect(store.configs.get(1)!.config.title).toBe('News, saved as the dialog opened'));
    expect(await screen.findByText('Saved.')).toBeTruthy();
  });

  test('cancelling the sign-in fails the save as before and keeps the draft', async () => {
    localStorage.clear();
    const store = new FakeBackend([{ title: 'News', searchSpace: 'demo' }]);
    const shell = fakeDesktop([LOCAL, remote()], 'c-staging', store);
    render(App, { props: { backend: shell.over(store) } });
    const title = (await screen.findByLabelText('Title')) as HTMLInputElement;
    shell.endSignIn('c-staging');
    await fireEvent.input(title, { target: { value: 'Kept' } });
    await fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    await screen.findByTestId('sign-in-dialog');
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect((await screen.findByText(/Not published; your changes are kept: the sign-in has ended/)).textContent).toBeTruthy();
    expect(title.value).toBe('Kept');
    expect(store.configs.get(1)!.config.title).toBe('News');
  });

  test('cancelled at start, a sign-in from Settings later loads what could not be loaded', async () => {
    localStorage.clear();
    const store = new FakeBackend([{ title: 'News', searchSpace: 'demo' }]);
    const shell = fakeDesktop([LOCAL, remote({ signedIn: false })], 'c-staging', store);
    const list = store.listConfigurations.bind(store);
    store.listConfigurations = async () => {
      if (!shell.state.connections[1].signedIn) throw new BackendError('unauthorized', 'the sign-in has ended');
      return list();
    };
    render(App, { props: { backend: shell.over(store) } });
    await screen.findByTestId('sign-in-dialog');
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText(/Could not load the configurations: the sign-in has ended/)).toBeTruthy();

    await fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const staging = (await screen.findByText('Staging')).closest('li')!;
    await fireEvent.click(within(staging).getByRole('button', { name: 'Sign in' }));
    await fireEvent.input(await screen.findByLabelText('Password'), { target: { value: PASSWORD } });
    await fireEvent.click(within(screen.getByTestId('sign-in-dialog')).getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('News'));
    expect(screen.getByTestId('connection').textContent).toMatch(/Staging · signed in/);
  });
});
