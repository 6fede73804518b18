// The sign-in gate: a call that meets an ended sign-in waits for the designer to sign in, is retried once and
// answers as if nothing happened; a cancel gives the original error; failures at the same time share a dialog.
import { describe, expect, test, vi } from 'vitest';
import { withSignIn } from './signin';
import { BackendError } from './Backend';
import { FakeBackend } from '../../test/fakeBackend';
import { LOCAL, fakeDesktop, remote } from '../../test/fakeDesktop';
import type { Connection } from '../types/desktop';

/** A remote store whose calls fail with `unauthorized` while the current connection's sign-in has ended. */
function setUp(current = 'c-staging') {
  const shell = fakeDesktop([LOCAL, remote({ signedIn: false })], current);
  const store = new FakeBackend([{ title: 'News', searchSpace: 'demo' }]);
  const signedIn = () => shell.state.connections.find((c) => c.id === shell.state.current)!.signedIn;
  const guard = <A extends unknown[], T>(f: (...a: A) => Promise<T>) =>
    vi.fn(async (...a: A) => {
      if (current !== 'local' && !signedIn()) throw new BackendError('unauthorized', 'the sign-in has ended');
      return f(...a);
    });
  const backend = Object.assign(store, {
    listConfigurations: guard(store.listConfigurations.bind(store)),
    getConfiguration: guard(store.getConfiguration.bind(store)),
    search: guard(store.search.bind(store)),
    ...shell.workspace,
    desktop: shell.desktop,
  });
  /** The dialog: records who was asked, and answers as the test says. */
  const asked: Connection[] = [];
  let answer: (c: Connection) => Promise<boolean> = async () => false;
  const ask = vi.fn((c: Connection) => {
    asked.push(c);
    return answer(c);
  });
  const wrapped = withSignIn(backend, ask);
  const signIn = async (c: Connection) => {
    await shell.desktop.signIn(c.id, { password: 'ana-password', token: null, remember: false });
    return true;
  };
  return { shell, backend, wrapped, ask, asked, answerWith: (f: typeof answer) => (answer = f), signIn };
}

describe('signing in again', () => {
  test('a call that meets an ended sign-in is retried once after signing in and answers its caller', async () => {
    const t = setUp();
    t.answerWith(t.signIn);
    const list = await t.wrapped.listConfigurations();
    expect(list.configurations.map((c) => c.config.title)).toEqual(['News']);
    expect(t.ask).toHaveBeenCalledTimes(1);
    expect(t.asked[0]).toMatchObject({ id: 'c-staging', name: 'Staging', signIn: 'password', username: 'ana' });
    expect(t.backend.listConfigurations).toHaveBeenCalledTimes(2);
  });

  test('a cancel gives the caller the original error and the call is not repeated', async () => {
    const t = setUp();
    t.answerWith(async () => false);
    const failed = await t.wrapped.getConfiguration(1).catch((e) => e);
    expect(failed).toBeInstanceOf(BackendError);
    expect(failed).toMatchObject({ code: 'unauthorized', message: 'the sign-in has ended' });
    expect(t.backend.getConfiguration).toHaveBeenCalledTimes(1);
  });

  test('calls failing at the same time share one dialog and are each retried', async () => {
    const t = setUp();
    let finish: (ok: boolean) => void = () => {};
    t.answerWith((c) => new Promise((resolve) => (finish = (ok) => void t.signIn(c).then(() => resolve(ok)))));
    const calls = [t.wrapped.listConfigurations(), t.wrapped.getConfiguration(1), t.wrapped.listConfigurations()] as const;
    await vi.waitFor(() => expect(t.ask).toHaveBeenCalledTimes(1));
    await new Promise((r) => setTimeout(r, 10));
    expect(t.ask).toHaveBeenCalledTimes(1);
    finish(true);
    const [a, b, c] = await Promise.all(calls);
    expect(a.configurations).toHaveLength(1);
    expect(b.config.title).toBe('News');
    expect(c.configurations).toHaveLength(1);
    expect(t.ask).toHaveBeenCalledTimes(1);
  });

  test('a retry that fails again fails, without a second dialog', async () => {
    const t = setUp();
    t.answerWith(async () => true); // says signed in, but the shell still has no tokens
    const failed = await t.wrapped.listConfigurations().catch((e) => e);
    expect(failed).toMatchObject({ code: 'unauthorized' });
    expect(t.ask).toHaveBeenCalledTimes(1);
    expect(t.backend.listConfigurations).toHaveBeenCalledTimes(2);
  });

  test('the local store never asks to sign in', async () => {
    const t = setUp('local');
    const refusing = vi.fn(async () => {
      throw new BackendError('unauthorized', 'refused');
    });
    const wrapped = withSignIn(Object.assign(t.backend, { listConfigurations: refusing }), t.ask);
    await expect(wrapped.listConfigurations()).rejects.toMatchObject({ code: 'unauthorized' });
    expect(t.ask).not.toHaveBeenCalled();
  });

  test('other errors pass through untouched', async () => {
    const t = setUp();
    t.shell.state.connections[1].signedIn = true;
    await expect(t.wrapped.getConfiguration(99)).rejects.toMatchObject({ code: 'not_found' });
    expect(t.ask).not.toHaveBeenCalled();
  });

  test('the shell\'s commands go through the gate too; after a cancel the preview stays quiet until a sign-in', async () => {
    const t = setUp();
    const news = structuredClone(t.backend.configs.get(1)!);
    t.shell.workspace.publish.mockClear();
    t.answerWith(async () => false);
    await expect(t.wrapped.publish(1, news, news)).rejects.toMatchObject({ code: 'unauthorized' });
    expect(t.ask).toHaveBeenCalledTimes(1);
    // The preview's searches while typing do not open the dialog again after a cancel...
    const everything = { input: '', selectedFacets: [], start: null };
    await expect(t.wrapped.search(1, everything)).rejects.toMatchObject({ code: 'unauthorized' });
    expect(t.ask).toHaveBeenCalledTimes(1);
    // ...but a save does.
    t.answerWith(t.signIn);
    await t.wrapped.publish(1, news, news).catch(() => undefined);
    expect(t.ask).toHaveBeenCalledTimes(2);
    // Once signed in, searches work again without asking.
    const found = await t.wrapped.search(1, everything);
    expect(found.result.length).toBeGreaterThan(0);
    expect(t.ask).toHaveBeenCalledTimes(2);
  });

  test('an ended provider session (sign_in_needed) asks to sign in like a refused token', async () => {
    const t = setUp();
    t.answerWith(t.signIn);
    const ended = new BackendError('sign_in_needed', 'sign in to https://staging.example.org again');
    const active = t.backend.configs.get(1)!;
    t.backend.activeConfiguration = vi.fn().mockRejectedValueOnce(ended).mockResolvedValueOnce(active);
    await expect(t.wrapped.activeConfiguration()).resolves.toEqual(active);
    expect(t.ask).toHaveBeenCalledTimes(1);
    expect(t.asked[0].id).toBe('c-staging');
  });

  test('a call whose connection stopped being current while it ran gives its error and is not retried', async () => {
    const t = setUp();
    t.shell.state.connections.push(remote({ id: 'c-prod', name: 'Production', signedIn: true }));
    t.answerWith(t.signIn);
    let fail: () => void = () => {};
    const slow = vi.fn(
      () => new Promise<never>((_, reject) => (fail = () => reject(new BackendError('unauthorized', 'staging refused')))),
    );
    t.backend.activeConfiguration = slow;
    const pending = t.wrapped.activeConfiguration().catch((e) => e);
    await t.wrapped.desktop!.useConnection('c-prod');
    fail();
    expect(await pending).toMatchObject({ code: 'unauthorized', message: 'staging refused' });
    expect(t.ask).not.toHaveBeenCalled();
    expect(slow).toHaveBeenCalledTimes(1);
  });

  test('a copy refused by the target connection asks to sign in to the target, then copies', async () => {
    const t = setUp('local');
    t.answerWith(t.signIn);
    t.shell.desktop.copyPlan.mockImplementation(async (target: string, id: number, targetId: number | null) => {
      if (!t.shell.state.connections.find((c) => c.id === target)!.signedIn) throw new BackendError('unauthorized', 'staging refused');
      return { target, sourceId: id, targetId, base: null, diff: [], candidates: [] };
    });
    const plan = await t.wrapped.desktop!.copyPlan('c-staging', 1, null);
    expect(plan.target).toBe('c-staging');
    expect(t.asked.map((c) => c.id)).toEqual(['c-staging']);
    expect(t.shell.desktop.copyPlan).toHaveBeenCalledTimes(2);
  });

  test('a sign-in that fails from the connection form is that form\'s error, never a dialog', async () => {
    const t = setUp();
    await expect(
      t.wrapped.desktop!.saveConnection({
        id: null, name: 'X', url: 'https://x.example.org', signIn: 'password', issuer: 'https://sso.example.org', clientId: 'ppt',
        username: 'ana', rememberPassword: false, token: null, clientSecret: null, password: 'wrong',
      }),
    ).rejects.toMatchObject({ code: 'unauthorized' });
    expect(t.ask).not.toHaveBeenCalled();
  });
});
