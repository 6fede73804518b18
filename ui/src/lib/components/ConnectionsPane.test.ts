// Settings → Connections: the list with its states, the form showing only the chosen sign-in method's fields,
// and exactly what the shell is sent.
import { describe, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import ConnectionsPane from './ConnectionsPane.svelte';
import { LOCAL, PASSWORD, fakeDesktop, remote } from '../../test/fakeDesktop';
import { BackendError } from '../backend/Backend';

const labels = () => [...document.querySelectorAll('.connection-form label')].map((l) => l.textContent?.trim());

async function openForm(desktop: ReturnType<typeof fakeDesktop>['desktop']) {
  const onBackendChanged = vi.fn();
  render(ConnectionsPane, { props: { desktop, onBackendChanged } });
  await fireEvent.click(await screen.findByRole('button', { name: 'Add a connection' }));
  return onBackendChanged;
}

const type = (label: string, value: string) => fireEvent.input(screen.getByLabelText(label), { target: { value } });

describe('the connections list', () => {
  test('marks the current one and says whether each is signed in and where its secrets are kept', async () => {
    const { desktop } = fakeDesktop(
      [
        LOCAL,
        remote(),
        remote({ id: 'c-prod', name: 'Production', url: 'https://search.example.org', signIn: 'token', hasToken: true, signedIn: false, secretStorage: 'file' }),
      ],
      'c-staging',
    );
    render(ConnectionsPane, { props: { desktop, onBackendChanged: () => {} } });
    const staging = (await screen.findByText('Staging')).closest('li')!;
    expect(staging.getAttribute('aria-current')).toBe('true');
    expect(within(staging).getByText('Current')).toBeTruthy();
    expect(within(staging).getByText('signed in')).toBeTruthy();
    expect(within(staging).getByText('Its secrets are kept in the system keyring.')).toBeTruthy();
    expect(within(staging).queryByRole('button', { name: 'Use this connection' })).toBeNull();

    const prod = screen.getByText('Production').closest('li')!;
    expect(prod.getAttribute('aria-current')).toBeNull();
    expect(within(prod).getByText('not signed in')).toBeTruthy();
    expect(within(prod).getByRole('note').textContent).toMatch(/owner-only file in the data folder: no system keyring was found/);

    const local = screen.getByText('Local store').closest('li')!;
    expect(within(local).getByText('In /home/ana/.local/share/search-studio')).toBeTruthy();
    expect(within(local).queryByRole('button', { name: 'Remove' })).toBeNull();
    expect(within(local).queryByRole('button', { name: 'Sign in' })).toBeNull();
  });

  test('"Use this connection" switches the backend', async () => {
    const { desktop } = fakeDesktop([LOCAL, remote()], 'local');
    const onBackendChanged = vi.fn();
    render(ConnectionsPane, { props: { desktop, onBackendChanged } });
    const staging = (await screen.findByText('Staging')).closest('li')!;
    await fireEvent.click(within(staging).getByRole('button', { name: 'Use this connection' }));
    await waitFor(() => expect(onBackendChanged).toHaveBeenCalled());
    expect(desktop.useConnection).toHaveBeenCalledWith('c-staging');
    expect(screen.getByRole('status').textContent).toBe('Now using “Staging”.');
    expect(within(screen.getByText('Staging').closest('li')!).getByText('Current')).toBeTruthy();
  });

  test('removing asks first, and removing the current one switches back to the local store', async () => {
    const { desktop } = fakeDesktop([LOCAL, remote()], 'c-staging');
    const onBackendChanged = vi.fn();
    render(ConnectionsPane, { props: { desktop, onBackendChanged } });
    const staging = (await screen.findByText('Staging')).closest('li')!;
    await fireEvent.click(within(staging).getByRole('button', { name: 'Remove' }));
    expect(desktop.removeConnection).not.toHaveBeenCalled();
    await fireEvent.click(within(staging).getByRole('button', { name: 'Remove “Staging”?' }));
    await waitFor(() => expect(screen.queryByText('Staging')).toBeNull());
    expect(desktop.removeConnection).toHaveBeenCalledWith('c-staging');
    expect(onBackendChanged).toHaveBeenCalled();
    expect(within(screen.getByText('Local store').closest('li')!).getByText('Current')).toBeTruthy();
  });

  test('a server whose sign-in has ended is switched to all the same, and the first call there asks', async () => {
    const { desktop, state } = fakeDesktop([LOCAL, remote({ signedIn: false })], 'local');
    desktop.useConnection.mockImplementation(async (id: string) => {
      state.current = id;
      throw new BackendError('unauthorized', 'the sign-in has ended');
    });
    const onBackendChanged = vi.fn();
    render(ConnectionsPane, { props: { desktop, onBackendChanged } });
    const staging = (await screen.findByText('Staging')).closest('li')!;
    await fireEvent.click(within(staging).getByRole('button', { name: 'Use this connection' }));
    await waitFor(() => expect(onBackendChanged).toHaveBeenCalled());
    expect(screen.getByRole('status').textContent).toBe('Now using “Staging”; it asks you to sign in.');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(within(screen.getByText('Staging').closest('li')!).getByText('Current')).toBeTruthy();
  });

  test('signing out forgets the sign-in', async () => {
    const { desktop } = fakeDesktop([LOCAL, remote({ hasPassword: true })], 'c-staging');
    render(ConnectionsPane, { props: { desktop, onBackendChanged: () => {} } });
    const staging = (await screen.findByText('Staging')).closest('li')!;
    await fireEvent.click(within(staging).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(within(screen.getByText('Staging').closest('li')!).getByText('not signed in')).toBeTruthy());
    expect(desktop.signOut).toHaveBeenCalledWith('c-staging');
  });
});

describe('the connection form', () => {
  test('shows only the fields of the chosen sign-in method, each labelled', async () => {
    const { desktop } = fakeDesktop();
    await openForm(desktop);
    expect(labels()).toEqual(['Name', 'Server URL', 'No sign-in', 'Access token', 'Username and password', 'Single sign-on in the browser']);

    await fireEvent.click(screen.getByLabelText('Access token'));
    expect(labels().slice(6)).toEqual(['Token']);
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('');

    await fireEvent.click(screen.getByLabelText('Username and password'));
    expect(labels().slice(6)).toEqual(['Issuer URL', 'Client id', 'Client secret', 'Username', 'Password', 'Remember the password on this device']);
    expect((screen.getByLabelText('Client id') as HTMLInputElement).value).toBe('ppt');
    expect((screen.getByLabelText('Password') as HTMLInputElement).type).toBe('password');
    expect((screen.getByLabelText('Client secret') as HTMLInputElement).type).toBe('password');

    await fireEvent.click(screen.getByLabelText('Single sign-on in the browser'));
    expect(labels().slice(6)).toEqual(['Issuer URL', 'Client id', 'Client secret']);

    await fireEvent.click(screen.getByLabelText('No sign-in'));
    expect(labels().slice(6)).toEqual([]);
  });

  test('a password connection sends its fields, signs in with the password and keeps nothing of other methods', async () => {
    const { desktop } = fakeDesktop();
    await openForm(desktop);
    await type('Name', 'Staging');
    await type('Server URL', ' https://staging.example.org ');
    await fireEvent.click(screen.getByLabelText('Access token'));
    await type('Token', 'typed-then-abandoned');
    await fireEvent.click(screen.getByLabelText('Username and password'));
    const save = screen.getByRole('button', { name: 'Save connection' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    await type('Issuer URL', 'https://sso.example.org/realms/search');
    await type('Client secret', 'ppt-secret');
    await type('Username', 'ana');
    await type('Password', PASSWORD);
    await fireEvent.click(screen.getByLabelText('Remember the password on this device'));
    expect(save.disabled).toBe(false);
    await fireEvent.click(save);
    await waitFor(() => expect(desktop.saveConnection).toHaveBeenCalled());
    expect(desktop.saveConnection).toHaveBeenCalledWith({
      id: null, name: 'Staging', url: 'https://staging.example.org', signIn: 'password',
      issuer: 'https://sso.example.org/realms/search', clientId: 'ppt', username: 'ana', rememberPassword: true,
      token: null, clientSecret: 'ppt-secret', password: PASSWORD,
    });
    expect(await screen.findByText('Saved “Staging” and signed in.')).toBeTruthy();
    expect(within(screen.getByText('Staging').closest('li')!).getByText('signed in')).toBeTruthy();
  });

  test('a token connection sends the token and nothing of the other methods', async () => {
    const { desktop } = fakeDesktop();
    await openForm(desktop);
    await type('Name', 'Production');
    await type('Server URL', 'https://search.example.org');
    await fireEvent.click(screen.getByLabelText('Username and password'));
    await type('Username', 'ana');
    await fireEvent.click(screen.getByLabelText('Access token'));
    await type('Token', '  tok-123  ');
    await fireEvent.click(screen.getByRole('button', { name: 'Save connection' }));
    await waitFor(() => expect(desktop.saveConnection).toHaveBeenCalled());
    expect(desktop.saveConnection.mock.calls[0][0]).toEqual({
      id: null, name: 'Production', url: 'https://search.example.org', signIn: 'token', issuer: null, clientId: null,
      username: null, rememberPassword: false, token: 'tok-123', clientSecret: null, password: null,
    });
  });

  test('editing keeps saved secrets unless replaced or removed', async () => {
    const { desktop } = fakeDesktop([LOCAL, remote({ hasClientSecret: true, signIn: 'browser', username: null })], 'local');
    render(ConnectionsPane, { props: { desktop, onBackendChanged: () => {} } });
    const staging = (await screen.findByText('Staging')).closest('li')!;
    await fireEvent.click(within(staging).getByRole('button', { name: 'Edit' }));
    expect((screen.getByLabelText('Single sign-on in the browser') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Client secret') as HTMLInputElement).placeholder).toMatch(/A secret is saved/);
    await fireEvent.click(screen.getByRole('button', { name: 'Save connection' }));
    await waitFor(() => expect(desktop.saveConnection).toHaveBeenCalledTimes(1));
    expect(desktop.saveConnection.mock.calls[0][0]).toMatchObject({ id: 'c-staging', signIn: 'browser', clientSecret: null, password: null });

    await fireEvent.click(within(screen.getByText('Staging').closest('li')!).getByRole('button', { name: 'Edit' }));
    await fireEvent.click(screen.getByLabelText('Remove the saved client secret'));
    await fireEvent.click(screen.getByRole('button', { name: 'Save connection' }));
    await waitFor(() => expect(desktop.saveConnection).toHaveBeenCalledTimes(2));
    expect(desktop.saveConnection.mock.calls[1][0]).toMatchObject({ id: 'c-staging', clientSecret: '' });
  });

  test('a refused password keeps the form open with the reason and saves nothing', async () => {
    const { desktop } = fakeDesktop();
    await openForm(desktop);
    await type('Name', 'Staging');
    await type('Server URL', 'https://staging.example.org');
    await fireEvent.click(screen.getByLabelText('Username and password'));
    await type('Issuer URL', 'https://sso.example.org/realms/search');
    await type('Username', 'ana');
    await type('Password', 'wrong');
    await fireEvent.click(screen.getByRole('button', { name: 'Save connection' }));
    expect((await screen.findByRole('alert')).textContent).toBe('invalid user credentials');
    expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('ana');
    expect(screen.queryByText('Staging')).toBeNull();
  });
});

describe('a folder as the workspace', () => {
  test('“Open a folder…” opens the chosen folder, makes it current and lists it with what its preview searches', async () => {
    const { desktop } = fakeDesktop([LOCAL, remote()], 'local');
    const onBackendChanged = vi.fn();
    render(ConnectionsPane, { props: { desktop, onBackendChanged } });
    await fireEvent.click(await screen.findByRole('button', { name: 'Open a folder…' }));
    await waitFor(() => expect(onBackendChanged).toHaveBeenCalledOnce());
    expect(desktop.openWorkspaceFolder).toHaveBeenCalledWith('/home/ana/search-configs');
    const entry = screen.getByText('search-configs').closest('li')!;
    expect(entry.getAttribute('aria-current')).toBe('true');
    expect(within(entry).getByText('/home/ana/search-configs · the preview searches Local store')).toBeTruthy();
    expect(within(entry).getByRole('button', { name: 'Open another folder…' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Open a folder…' })).toBeNull();
  });

  test('a cancelled folder dialog changes nothing', async () => {
    const { desktop } = fakeDesktop([LOCAL], 'local');
    desktop.pickFolder.mockResolvedValueOnce(null);
    const onBackendChanged = vi.fn();
    render(ConnectionsPane, { props: { desktop, onBackendChanged } });
    await fireEvent.click(await screen.findByRole('button', { name: 'Open a folder…' }));
    await waitFor(() => expect(desktop.pickFolder).toHaveBeenCalled());
    expect(desktop.openWorkspaceFolder).not.toHaveBeenCalled();
    expect(onBackendChanged).not.toHaveBeenCalled();
  });
});
