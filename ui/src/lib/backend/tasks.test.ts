import { describe, expect, test, vi } from 'vitest';
import { followTask } from './tasks';
import { fakeDesktop } from '../../test/fakeDesktop';
import type { TaskProgress } from './Backend';

const report = (taskId: number, over: Partial<TaskProgress> = {}): TaskProgress => ({
  taskId, label: 'Taking configuration 1 offline', done: 30, total: null, finished: true, error: null, cancelled: false,
  message: 'pulled 30 documents into archive as local configuration 2', ...over,
});

describe('following a task to its end', () => {
  test('tells its last report once, and only its own', async () => {
    const { desktop, emit } = fakeDesktop();
    const ended = vi.fn();
    const id = await followTask(desktop, async () => 5, ended);
    expect(id).toBe(5);
    emit(report(4));
    emit(report(5, { finished: false, message: null }));
    expect(ended).not.toHaveBeenCalled();
    emit(report(5));
    emit(report(5, { message: 'again' }));
    expect(ended).toHaveBeenCalledTimes(1);
    expect(ended.mock.calls[0][0].message).toBe('pulled 30 documents into archive as local configuration 2');
  });

  test('a task that ends before its start has answered is not missed', async () => {
    const { desktop, emit } = fakeDesktop();
    const ended = vi.fn();
    await followTask(
      desktop,
      async () => {
        emit(report(9, { error: 'the server cannot be reached', message: null }));
        return 9;
      },
      ended,
    );
    expect(ended).toHaveBeenCalledWith(expect.objectContaining({ taskId: 9, error: 'the server cannot be reached' }));
  });

  test('a start that fails stops listening and throws', async () => {
    const { desktop, emit } = fakeDesktop();
    const ended = vi.fn();
    await expect(followTask(desktop, async () => Promise.reject(new Error('refused')), ended)).rejects.toThrow('refused');
    emit(report(1));
    expect(ended).not.toHaveBeenCalled();
  });
});
