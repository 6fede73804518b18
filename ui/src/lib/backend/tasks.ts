// A long task of the desktop shell (an import, a pull) followed to its end from where it was started: the
// listener is in place before the task starts, so that a task that ends at once is not missed.
import type { Desktop, TaskProgress } from './Backend';

/**
 * Starts a task with `start` and calls `ended` once, with its last report, when it has finished (done, failed
 * or cancelled). Answers the task's id; when `start` fails, nothing is followed and its error is thrown.
 */
export async function followTask(
  desktop: Pick<Desktop, 'onTaskProgress'>,
  start: () => Promise<number>,
  ended: (last: TaskProgress) => void,
): Promise<number> {
  let id: number | null = null;
  // Reports of tasks that finished before `start` answered this one's id.
  const early = new Map<number, TaskProgress>();
  let told = false;
  const tell = (last: TaskProgress) => {
    if (told) return;
    told = true;
    stop();
    ended(last);
  };
  const stop = await desktop.onTaskProgress((p) => {
    if (!p.finished) return;
    if (id === null) early.set(p.taskId, p);
    else if (p.taskId === id) tell(p);
  });
  try {
    id = await start();
  } catch (e) {
    stop();
    throw e;
  }
  const before = early.get(id);
  if (before) tell(before);
  return id;
}
