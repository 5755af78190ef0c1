/** SPEC §2: Internet Explorer users see a dialog saying the upload utility is incompatible. */
import { useState } from 'react';
import { MessageDialog } from '../../ui';
import { IE_INCOMPATIBLE } from './ie';

export default function IncompatibleBrowserDialog() {
  const [open, setOpen] = useState(true);
  return (
    <MessageDialog isOpen={open} onClose={() => setOpen(false)} title="Browser not supported">
      <p>{IE_INCOMPATIBLE}</p>
    </MessageDialog>
  );
}
