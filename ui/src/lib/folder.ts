// A folder workspace's files changed on disk (a `git pull`, a text editor): what the editor does with each change.
// A configuration open without unsaved edits shows the file's new content; one with unsaved edits shows both, field
// by field, in the conflict view, and neither is written over until the designer chooses; a file deleted while open
// keeps the edit in the editor, to be saved again. The files that cannot be read are the folder's `problems`.
import type { Desktop } from './backend/Backend';
import type { Studio } from './studio.svelte';
import type { FileProblem, FolderChange } from './types/desktop';
import type { Problem } from './types/sync';
import type { Configuration } from './types/generated';
import { Draft } from './editor/draft.svelte';
import { publishConflict } from './editor/conflict';

/** How a problem of a file is shown: `news.json, line 3, column 5: expected …`. */
export function describeProblem(p: FileProblem | Problem): string {
  return `${p.file}, line ${p.line}, column ${p.column}: ${p.message}`;
}

/** Takes the changes of `change` into the editor of `studio`. */
export async function applyFolderChange(studio: Studio, change: FolderChange): Promise<void> {
  await studio.refreshList().catch(() => undefined);
  const shown: string[] = [];
  const later: string[] = [];
  for (const { id, key } of change.changed) {
    delete studio.gone[id];
    const draft = studio.drafts[id];
    if (!draft) continue;
    let theirs: Configuration;
    try {
      theirs = await studio.backend.getConfiguration(id);
    } catch {
      continue;
    }
    if (!draft.dirty) {
      studio.drafts[id] = new Draft(theirs);
      shown.push(`${key}.json`);
      continue;
    }
    const conflict = publishConflict(studio.baseOf(draft), draft.body(), theirs);
    if (!conflict) continue;
    // The conflict view saves the open configuration once resolved; another one's edit meets the change when saved.
    if (id === studio.currentId) studio.conflict = { ...conflict, id, onDisk: true };
    else later.push(`${key}.json`);
  }
  const removed = change.removed.filter(({ id }) => studio.drafts[id]);
  for (const { id, key } of removed) studio.gone[id] = `${key}.json`;
  const texts: string[] = [];
  if (removed.length) {
    const names = removed.map(({ key }) => `${key}.json`).join(', ');
    texts.push(`${names} ${removed.length === 1 ? 'was' : 'were'} deleted on disk. What the editor shows is kept; Save writes the file again.`);
  }
  if (shown.length) texts.push(`${shown.join(', ')} changed on disk; the editor shows the new content.`);
  if (later.length) texts.push(`${later.join(', ')} changed on disk too; saving your edits there shows both versions.`);
  if (texts.length) studio.say({ kind: removed.length ? 'error' : 'info', text: texts.join(' ') });
}

/**
 * Follows the folder workspace of `studio` on disk: its problems now and after each change (to `onProblems`), and
 * each change taken into the editor. Returns what stops following.
 */
export function followFolder(
  studio: Studio,
  desktop: Desktop,
  onProblems: (problems: FileProblem[]) => void,
): () => void {
  studio.inFolder = true;
  let stop: (() => void) | null = null;
  let ended = false;
  void desktop.folderStatus().then((status) => onProblems(status.problems), () => undefined);
  void desktop
    .onFolderChange((change) => {
      onProblems(change.problems);
      void applyFolderChange(studio, change);
    })
    .then((unlisten) => (ended ? unlisten() : (stop = unlisten)));
  return () => {
    ended = true;
    studio.inFolder = false;
    stop?.();
  };
}
