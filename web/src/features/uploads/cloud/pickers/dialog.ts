import './dialog.css';

/**
 * The modal dialog a cloud picker shows in the page (Box's Content Picker, OneDrive's v8 picker frame):
 * a native <dialog> opened with showModal, so focus moves into it and stays there, labelled with the
 * provider's name, with a Close button. Escape and Close are a cancel (`onCancel`, once), which SPEC §4
 * wants silent.
 */
const REMOVE_AFTER_MS = 1000;

export interface PickerDialog {
  dialog: HTMLDialogElement;
  /** Where the picker goes. */
  body: HTMLDivElement;
  /** Closes and removes the dialog (no `onCancel`). */
  close(): void;
}

export function openPickerDialog(provider: string, onCancel: () => void): PickerDialog {
  const title = `Choose files from ${provider}`;
  const dialog = document.createElement('dialog');
  dialog.className = 'uploads-cloud-dialog';
  dialog.setAttribute('aria-label', title);
  const header = document.createElement('div');
  header.className = 'uploads-cloud-dialog-header';
  const heading = document.createElement('h2');
  heading.className = 'uploads-cloud-dialog-title';
  heading.textContent = title;
  const closeButton = document.createElement('button');
  closeButton.type = 'button';
  closeButton.className = 'uploads-cloud-dialog-close';
  closeButton.setAttribute('aria-label', 'Close');
  closeButton.textContent = '×';
  header.append(heading, closeButton);
  const body = document.createElement('div');
  body.className = 'uploads-cloud-dialog-body';
  dialog.append(header, body);
  document.body.append(dialog);

  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    if (dialog.open) dialog.close();
    // Gone from view at once, out of the page a moment later: a picker in a frame that just answered
    // its own click ('Select', 'Cancel') still gets our answer to it and finishes that click, rather
    // than being torn down in the middle of it.
    setTimeout(() => dialog.remove(), REMOVE_AFTER_MS);
  };
  const cancel = (event?: Event) => {
    event?.preventDefault();
    if (!open) return;
    close();
    onCancel();
  };
  dialog.addEventListener('cancel', cancel);
  closeButton.addEventListener('click', () => cancel());
  dialog.showModal();
  return { dialog, body, close };
}
