// The editor's keys: Ctrl+S (Cmd+S on a Mac) saves; Ctrl+Z undoes and Ctrl+Y or Ctrl+Shift+Z redoes, except inside
// the preview, whose own fields keep them. None while a dialog is open; while a sign-in is asked for, only the save,
// which waits for the sign-in and then goes on (another request found the sign-in ended as the designer pressed
// Ctrl+S).
import type { Draft } from './editor/draft.svelte';

export interface EditorKeys {
  draft: Draft | null;
  dialogOpen: boolean;
  signingIn: boolean;
  save: () => void;
}

export function onEditorKey(e: KeyboardEvent, { draft, dialogOpen, signingIn, save }: EditorKeys): void {
  if (!(e.ctrlKey || e.metaKey) || !draft || dialogOpen) return;
  const key = e.key.toLowerCase();
  if (signingIn && key !== 's') return;
  if (key === 's') {
    e.preventDefault();
    save();
  } else if ((key === 'z' || key === 'y') && !inPreview(e.target)) {
    e.preventDefault();
    if (key === 'y' || e.shiftKey) draft.redo();
    else draft.undo();
  }
}

function inPreview(target: EventTarget | null): boolean {
  return target instanceof Element && !!target.closest('.preview-host');
}
