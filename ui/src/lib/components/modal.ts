// Opens a <dialog> as a modal; where showModal is missing (old engines, test DOMs) it is opened in place.
export function openModal(dialog: HTMLDialogElement): void {
  if (typeof dialog.showModal === 'function') {
    try {
      dialog.showModal();
      return;
    } catch {
      /* not connected yet or not supported: fall through */
    }
  }
  dialog.setAttribute('open', '');
}
